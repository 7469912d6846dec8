import type { InsertFormat } from '../model/store.js';
import { retryWithBackoff, type Backoff } from '../util/retry.js';
import { releaseBytes } from './release-bytes.js';

/**
 * Where batches go: the store's span and log inserts. Batches arrive already encoded as insert
 * payloads, so a batch waiting for max_rows or max_age_ms holds compact bytes outside the JS heap
 * instead of row objects that would live long enough to be promoted and collected late.
 */
export interface SignalSink {
  /** The payloads' format: the writer encodes rows in it. */
  format: InsertFormat;
  /**
   * Inserts a concatenation of span payloads (rows of the spans table in `format`). The payload's
   * bytes are released once the returned promise resolves: a sink must not keep them past it.
   */
  writeSpans(payload: Buffer): Promise<void>;
  writeLogs(payload: Buffer): Promise<void>;
}

/** Rows encoded as insert payloads, with their counts. */
export interface EncodedRows {
  spans: Uint8Array;
  spanRows: number;
  logs: Uint8Array;
  logRows: number;
}

/** One add()'s rows, waiting to be inserted. */
interface Added {
  rows: EncodedRows;
  addedAtMs: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/** The adds of one insert. */
interface Batch {
  adds: Added[];
  spanRows: number;
  logRows: number;
}

export interface BatcherOptions {
  maxRows: number;
  maxAgeMs: number;
  /** Delays between attempts of a failed insert. */
  backoff: Backoff;
  nowMs: () => number;
  onFlushed: (spans: number, logs: number, seconds: number) => void;
  onInsertFailure: (error: unknown, attempt: number) => void;
}

/**
 * Group commit: rows from many bus batches share one insert, at `maxRows` rows of a table or when the oldest
 * row is `maxAgeMs` old. Each add() resolves once its rows are stored, which is when the bus may
 * commit them. A failed insert is retried with the same rows until it succeeds or the batcher
 * closes, so nothing acknowledged is lost.
 *
 * Rows added while an insert runs wait for the next one. When the writer is behind (catching up
 * from the bus, or the store slow), many bus batches arrive meanwhile; each insert still takes at
 * most `maxRows` rows per table, the oldest adds first, instead of one insert of everything
 * waiting: a 90k-row insert holds its concatenated copy and makes the store build blocks of that
 * size, both large holders of memory, for no gain in throughput.
 */
export class Batcher {
  /** Adds not yet taken by an insert, oldest first. */
  private queue: Added[] = [];
  private queuedSpanRows = 0;
  private queuedLogRows = 0;
  private flushing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Set by close(): past it a failing insert gives up (its rows stay uncommitted on the bus). */
  private closeDeadlineMs: number | undefined;

  constructor(
    private readonly sink: SignalSink,
    private readonly options: BatcherOptions,
  ) {}

  get bufferedRows(): number {
    return this.queuedSpanRows + this.queuedLogRows;
  }

  add(rows: EncodedRows): Promise<void> {
    if (rows.spanRows === 0 && rows.logRows === 0) return Promise.resolve();
    const stored = new Promise<void>((resolve, reject) => this.queue.push({ rows, addedAtMs: this.options.nowMs(), resolve, reject }));
    this.queuedSpanRows += rows.spanRows;
    this.queuedLogRows += rows.logRows;
    if (this.hasFullBatch()) this.kick();
    else this.arm();
    return stored;
  }

  /** Stores everything buffered, then stops; gives up on a failing store after `graceMs`. */
  async close(graceMs = 15_000): Promise<void> {
    this.closeDeadlineMs = this.options.nowMs() + graceMs;
    if (this.timer !== undefined) clearTimeout(this.timer);
    while (this.flushing !== undefined || this.bufferedRows > 0) {
      if (this.flushing === undefined) this.kick();
      await this.flushing;
    }
  }

  /**
   * max_rows counts each table's rows apart: an insert goes to one table, and each part the engine
   * writes (then merges, rewriting its rows) is one table's. Counting spans and logs together made
   * parts of half that size under a mixed load, twice as many inserts and merges for the same rows
   * (the engine's CPU per item fell by about a quarter with whole batches).
   */
  private hasFullBatch(): boolean {
    return this.queuedSpanRows >= this.options.maxRows || this.queuedLogRows >= this.options.maxRows;
  }

  private arm(): void {
    const oldest = this.queue[0];
    if (this.timer !== undefined || this.flushing !== undefined || oldest === undefined) return;
    const waitMs = Math.max(0, oldest.addedAtMs + this.options.maxAgeMs - this.options.nowMs());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.kick();
    }, waitMs);
  }

  private kick(): void {
    if (this.flushing !== undefined || this.bufferedRows === 0) return;
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    const batch = this.take();
    this.flushing = this.store(batch).finally(() => {
      this.flushing = undefined;
      if (this.hasFullBatch()) this.kick();
      else if (this.bufferedRows > 0) this.arm();
    });
  }

  /** The oldest adds, up to maxRows rows per table (at least one add, however large). */
  private take(): Batch {
    const batch: Batch = { adds: [], spanRows: 0, logRows: 0 };
    const maxRows = this.options.maxRows;
    for (const added of this.queue) {
      const fits = batch.spanRows + added.rows.spanRows <= maxRows && batch.logRows + added.rows.logRows <= maxRows;
      if (batch.adds.length > 0 && !fits) break;
      batch.adds.push(added);
      batch.spanRows += added.rows.spanRows;
      batch.logRows += added.rows.logRows;
    }
    this.queue = this.queue.slice(batch.adds.length);
    this.queuedSpanRows -= batch.spanRows;
    this.queuedLogRows -= batch.logRows;
    return batch;
  }

  private async store(batch: Batch): Promise<void> {
    const startedMs = this.options.nowMs();
    let spans = batch.spanRows > 0 ? joinPayloads(batch.adds.map((added) => added.rows.spans)) : undefined;
    let logs = batch.logRows > 0 ? joinPayloads(batch.adds.map((added) => added.rows.logs)) : undefined;
    // The joined payloads are what the insert needs; the adds' own buffers may go now.
    const waiters = batch.adds.map(({ resolve, reject }) => ({ resolve, reject }));
    batch.adds = [];
    try {
      await retryWithBackoff(
        async () => {
          // Each table's payload is released once that table stored it: a retry after the log
          // insert failed inserts the logs only, and the spans' bytes are not held meanwhile.
          if (spans !== undefined) {
            await this.sink.writeSpans(spans);
            releaseBytes(spans);
            spans = undefined;
          }
          if (logs !== undefined) {
            await this.sink.writeLogs(logs);
            releaseBytes(logs);
            logs = undefined;
          }
        },
        {
          backoff: this.options.backoff,
          deadlineMs: () => this.closeDeadlineMs,
          nowMs: this.options.nowMs,
          onFailure: this.options.onInsertFailure,
        },
      );
    } catch (error) {
      for (const waiter of waiters) waiter.reject(error);
      return;
    }
    this.options.onFlushed(batch.spanRows, batch.logRows, (this.options.nowMs() - startedMs) / 1000);
    for (const waiter of waiters) waiter.resolve();
  }
}

/**
 * One table's payloads of a batch as one insert payload. A single payload is used as it is (no
 * copy); several are concatenated, and their own buffers released at once, so a batch's bytes are
 * not held twice until the collector finds the parts dead.
 */
function joinPayloads(payloads: readonly Uint8Array[]): Buffer {
  const parts = payloads.filter((payload) => payload.byteLength > 0);
  const [only] = parts;
  if (parts.length === 1 && only !== undefined) return Buffer.from(only.buffer, only.byteOffset, only.byteLength);
  const joined = Buffer.concat(parts);
  for (const part of parts) releaseBytes(part);
  return joined;
}
