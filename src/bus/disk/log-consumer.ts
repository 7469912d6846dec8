import type { BusRecord, ConsumerOptions } from '../../model/bus.js';
import { partitionKey } from './segment-log.js';
import { recordBytes, type PositionedRecord } from './tail-cache.js';

/** What a group consumer reads from and commits to (the embedded bus). */
export interface LogSource {
  /** Durable records from `position` on (other topics included), and the position after what was examined. */
  read(position: number, maxRecords: number): Promise<{ records: PositionedRecord[]; nextPosition: number }>;
  /** The group's committed next offset of a partition (0 when none). */
  committed(group: string, topic: string, partition: number): bigint;
  /** Records the group's progress: next offsets per partition, and where a restart reads again. */
  commit(group: string, nextOffsets: Map<string, { topic: string; partition: number; nextOffset: bigint }>, resumePosition: number): void;
}

interface Batch {
  startPosition: number;
  nextOffsets: Map<string, { topic: string; partition: number; nextOffset: bigint }>;
  bytes: number;
  done: boolean;
}

const RETRY_DELAY_MS = 500;
const DEFAULT_MAX_IN_FLIGHT_BYTES = 32 * 1024 * 1024;

/**
 * One consumer group on the embedded bus's log. It reads the log in order from a cursor (the whole
 * log is one sequence, so partitions keep their order), hands batches of its topics' records to the
 * handler with several in flight, and commits strictly in order once they succeed. A failed batch
 * stops delivery; once the in-flight ones settle, delivery starts again from the first batch not
 * committed (at-least-once).
 */
export class LogConsumer {
  private cursor: number;
  /** Next offset to deliver per partition; below it a record was already delivered or committed. */
  private readonly positions = new Map<string, bigint>();
  private inFlight: Batch[] = [];
  private inFlightBytes = 0;
  private running = 0;
  private failed = false;
  private closed = false;
  private signal: { promise: Promise<void>; resolve: () => void } | undefined;
  private readonly loop: Promise<void>;
  private readonly topics: Set<string>;
  private readonly maxInFlight: number;
  private readonly maxBatchRecords: number;
  private readonly maxInFlightBytes: number;

  constructor(
    private readonly options: ConsumerOptions & { maxInFlightBytes?: number },
    private readonly source: LogSource,
    startPosition: number,
    private readonly onError: (error: unknown) => void,
  ) {
    this.cursor = startPosition;
    this.topics = new Set(options.topics);
    this.maxInFlight = options.maxInFlightBatches ?? 64;
    this.maxBatchRecords = options.maxBatchRecords ?? 500;
    this.maxInFlightBytes = options.maxInFlightBytes ?? DEFAULT_MAX_IN_FLIGHT_BYTES;
    this.loop = this.run().catch((error: unknown) => this.onError(error));
  }

  /** The oldest log position this consumer may still need from memory. */
  get neededPosition(): number {
    return this.inFlight.length > 0 && this.failed ? this.inFlight[0].startPosition : this.cursor;
  }

  /** New records, or capacity freed. */
  wake(): void {
    const signal = this.signal;
    this.signal = undefined;
    signal?.resolve();
  }

  /** Stops delivering, and waits for the batches handed out to settle (their commits still apply). */
  async close(): Promise<void> {
    this.closed = true;
    this.wake();
    await this.loop;
    while (this.running > 0) await this.waitForWake();
  }

  private async run(): Promise<void> {
    while (!this.closed) {
      if (this.failed) {
        if (this.running > 0) {
          await this.waitForWake();
          continue;
        }
        this.rewind();
        await this.pause(RETRY_DELAY_MS);
        this.failed = false;
        continue;
      }
      if (this.inFlight.length >= this.maxInFlight || this.inFlightBytes >= this.maxInFlightBytes) {
        await this.waitForWake();
        continue;
      }
      const startPosition = this.cursor;
      const batch: Batch = { startPosition, nextOffsets: new Map(), bytes: 0, done: false };
      const records: BusRecord[] = [];
      // The log interleaves every topic: read on until the batch is full or the log is exhausted,
      // so a group of a sparse topic still gets full batches (not a few records per read).
      while (records.length < this.maxBatchRecords && !this.closed) {
        const { records: read, nextPosition } = await this.source.read(this.cursor, this.maxBatchRecords - records.length);
        if (nextPosition === this.cursor) break;
        this.cursor = nextPosition;
        this.take(read, batch, records);
      }
      if (this.closed) continue;
      if (records.length > 0) this.deliver(records, batch);
      else if (this.cursor === startPosition) await this.waitForWake();
      else if (this.inFlight.length === 0) this.source.commit(this.options.group, new Map(), this.cursor);
    }
  }

  /** Adds the records of this group's topics not yet delivered to `batch` and `records`. */
  private take(read: PositionedRecord[], batch: Batch, records: BusRecord[]): void {
    for (const { record } of read) {
      if (!this.topics.has(record.topic)) continue;
      const key = partitionKey(record.topic, record.partition);
      const expected = this.positions.get(key) ?? this.source.committed(this.options.group, record.topic, record.partition);
      if (record.offset < expected) continue;
      this.positions.set(key, record.offset + 1n);
      batch.nextOffsets.set(key, { topic: record.topic, partition: record.partition, nextOffset: record.offset + 1n });
      batch.bytes += recordBytes(record);
      records.push(record);
    }
  }

  private deliver(records: BusRecord[], batch: Batch): void {
    this.inFlight.push(batch);
    this.inFlightBytes += batch.bytes;
    this.running += 1;
    let handled: Promise<void>;
    try {
      handled = this.options.handler(records);
    } catch (error) {
      handled = Promise.reject(error);
    }
    handled
      .then(
        () => {
          batch.done = true;
          this.commitDone();
        },
        (error: unknown) => {
          if (!this.failed) this.onError(error);
          // The batch stays in flight, not done, so nothing after it commits.
          this.failed = true;
        },
      )
      .finally(() => {
        this.running -= 1;
        this.inFlightBytes -= batch.bytes;
        this.wake();
      });
  }

  /** Commits the batches at the head that are done, in order. */
  private commitDone(): void {
    const nextOffsets = new Map<string, { topic: string; partition: number; nextOffset: bigint }>();
    while (this.inFlight.length > 0 && this.inFlight[0].done) {
      for (const [key, next] of this.inFlight.shift()!.nextOffsets) nextOffsets.set(key, next);
    }
    if (nextOffsets.size === 0) return;
    this.source.commit(this.options.group, nextOffsets, this.inFlight[0]?.startPosition ?? this.cursor);
  }

  /** After a failure, with nothing running: deliver again from the first batch not committed. */
  private rewind(): void {
    const first = this.inFlight[0];
    if (first !== undefined) this.cursor = first.startPosition;
    this.inFlight = [];
    this.positions.clear();
  }

  private waitForWake(): Promise<void> {
    if (this.closed && this.running === 0) return Promise.resolve();
    if (this.signal === undefined) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => (resolve = done));
      this.signal = { promise, resolve };
    }
    return this.signal.promise;
  }

  private async pause(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([new Promise<void>((resolve) => (timer = setTimeout(resolve, ms))), this.waitForWake()]);
    clearTimeout(timer);
  }
}
