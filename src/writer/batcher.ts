import type { InsertFormat } from '../model/store.js';
import { retryWithBackoff, type Backoff } from '../util/retry.js';

/**
 * Where batches go: the store's span and log inserts. Batches arrive already encoded as insert
 * payloads, so a batch waiting for max_rows or max_age_ms holds compact bytes outside the JS heap
 * instead of row objects that would live long enough to be promoted and collected late.
 */
export interface SignalSink {
  /** The payloads' format: the writer encodes rows in it. */
  format: InsertFormat;
  /** Inserts a concatenation of span payloads (rows of the spans table in `format`). */
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

interface Pending {
  spanChunks: Uint8Array[];
  spanRows: number;
  logChunks: Uint8Array[];
  logRows: number;
  waiters: { resolve: () => void; reject: (error: unknown) => void }[];
  firstAtMs: number;
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
 * Group commit: rows from many bus batches share one insert, at `maxRows` rows or when the oldest
 * row is `maxAgeMs` old. Each add() resolves once its rows are stored, which is when the bus may
 * commit them. A failed insert is retried with the same rows until it succeeds or the batcher
 * closes, so nothing acknowledged is lost.
 */
export class Batcher {
  private pending: Pending = emptyPending();
  private flushing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** Set by close(): past it a failing insert gives up (its rows stay uncommitted on the bus). */
  private closeDeadlineMs: number | undefined;

  constructor(
    private readonly sink: SignalSink,
    private readonly options: BatcherOptions,
  ) {}

  get bufferedRows(): number {
    return this.pending.spanRows + this.pending.logRows;
  }

  add(rows: EncodedRows): Promise<void> {
    if (rows.spanRows === 0 && rows.logRows === 0) return Promise.resolve();
    if (this.bufferedRows === 0) this.pending.firstAtMs = this.options.nowMs();
    if (rows.spanRows > 0) {
      this.pending.spanChunks.push(rows.spans);
      this.pending.spanRows += rows.spanRows;
    }
    if (rows.logRows > 0) {
      this.pending.logChunks.push(rows.logs);
      this.pending.logRows += rows.logRows;
    }
    const stored = new Promise<void>((resolve, reject) => this.pending.waiters.push({ resolve, reject }));
    if (this.bufferedRows >= this.options.maxRows) this.kick();
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

  private arm(): void {
    if (this.timer !== undefined || this.flushing !== undefined) return;
    const waitMs = Math.max(0, this.pending.firstAtMs + this.options.maxAgeMs - this.options.nowMs());
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
    const batch = this.pending;
    this.pending = emptyPending();
    this.flushing = this.store(batch).finally(() => {
      this.flushing = undefined;
      if (this.bufferedRows >= this.options.maxRows) this.kick();
      else if (this.bufferedRows > 0) this.arm();
    });
  }

  private async store(batch: Pending): Promise<void> {
    const startedMs = this.options.nowMs();
    const spans = Buffer.concat(batch.spanChunks);
    const logs = Buffer.concat(batch.logChunks);
    batch.spanChunks = [];
    batch.logChunks = [];
    try {
      await retryWithBackoff(
        async () => {
          // A span insert that succeeded before a log insert failed is inserted again: the span
          // table deduplicates replays, so repeating it is safe.
          if (batch.spanRows > 0) await this.sink.writeSpans(spans);
          if (batch.logRows > 0) await this.sink.writeLogs(logs);
        },
        {
          backoff: this.options.backoff,
          deadlineMs: () => this.closeDeadlineMs,
          nowMs: this.options.nowMs,
          onFailure: this.options.onInsertFailure,
        },
      );
    } catch (error) {
      for (const waiter of batch.waiters) waiter.reject(error);
      return;
    }
    this.options.onFlushed(batch.spanRows, batch.logRows, (this.options.nowMs() - startedMs) / 1000);
    for (const waiter of batch.waiters) waiter.resolve();
  }
}

function emptyPending(): Pending {
  return { spanChunks: [], spanRows: 0, logChunks: [], logRows: 0, waiters: [], firstAtMs: 0 };
}
