import type { ConsumerOptions } from '../../model/bus.js';
import type { PartitionLog } from './partition-log.js';

interface InFlight {
  /** Offset after the batch's last record. */
  nextOffset: bigint;
  done: boolean;
}

interface PartitionCursor {
  log: PartitionLog;
  /** Next offset to deliver. */
  position: bigint;
  inFlight: InFlight[];
  /** Set after a handler failure: nothing more is delivered until in-flight batches settle. */
  failed: boolean;
  /** Batches handed to the handler and not yet settled. */
  running: number;
}

const RETRY_DELAY_MS = 500;

/**
 * Delivers a group's partitions to its handler. Several batches may be in flight (so a writer can
 * group-commit), but offsets commit strictly in order; a failed batch is delivered again from the
 * last commit after a short delay (at-least-once).
 */
export class GroupConsumer {
  private readonly cursors: PartitionCursor[];
  private readonly maxInFlight: number;
  private readonly maxBatchRecords: number;
  private inFlightCount = 0;
  private scheduled = false;
  private closed = false;
  private readonly settled = new Set<Promise<void>>();
  private retryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly options: ConsumerOptions,
    logs: PartitionLog[],
    private readonly hooks: { onCommitted: () => void; onError: (error: unknown) => void },
  ) {
    this.maxInFlight = options.maxInFlightBatches ?? 64;
    this.maxBatchRecords = options.maxBatchRecords ?? 500;
    this.cursors = logs.map((log) => ({ log, position: log.committedOffset(options.group), inFlight: [], failed: false, running: 0 }));
  }

  /** Schedules a delivery pass (new records, or capacity freed). */
  wake(): void {
    if (this.scheduled || this.closed) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.deliver();
    });
  }

  /** Stops delivering and waits for batches already handed out to settle (their commits still apply). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    while (this.settled.size > 0) await Promise.allSettled([...this.settled]);
  }

  private deliver(): void {
    for (const cursor of this.cursors) {
      while (!this.closed && !cursor.failed && this.inFlightCount < this.maxInFlight) {
        const records = cursor.log.read(cursor.position, this.maxBatchRecords);
        if (records.length === 0) break;
        const entry: InFlight = { nextOffset: records[records.length - 1].offset + 1n, done: false };
        cursor.position = entry.nextOffset;
        cursor.inFlight.push(entry);
        cursor.running += 1;
        this.inFlightCount += 1;
        const run = this.options
          .handler(records)
          .then(
            () => this.onSuccess(cursor, entry),
            (error: unknown) => this.onFailure(cursor, error),
          )
          .finally(() => {
            cursor.running -= 1;
            this.inFlightCount -= 1;
            this.settled.delete(run);
            if (cursor.failed && cursor.running === 0) this.rewind(cursor);
            this.wake();
          });
        this.settled.add(run);
      }
    }
  }

  private onSuccess(cursor: PartitionCursor, entry: InFlight): void {
    entry.done = true;
    let committed: bigint | undefined;
    while (cursor.inFlight.length > 0 && cursor.inFlight[0].done) committed = cursor.inFlight.shift()!.nextOffset;
    if (committed !== undefined) {
      cursor.log.commit(this.options.group, committed);
      this.hooks.onCommitted();
    }
  }

  private onFailure(cursor: PartitionCursor, error: unknown): void {
    if (!cursor.failed) this.hooks.onError(error);
    // The failed batch stays in inFlight as not done, so nothing after it commits.
    cursor.failed = true;
  }

  /** After a failure, once no batch of the partition runs, redeliver from the last commit. */
  private rewind(cursor: PartitionCursor): void {
    cursor.inFlight = [];
    cursor.position = cursor.log.committedOffset(this.options.group);
    if (this.closed) return;
    this.retryTimer = setTimeout(() => {
      cursor.failed = false;
      this.wake();
    }, RETRY_DELAY_MS);
  }
}
