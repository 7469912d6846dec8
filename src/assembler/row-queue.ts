import { isPermanentError, retryWithBackoff, type Backoff } from '../util/retry.js';

/**
 * A bounded, batching write queue for the assembler's outputs (one per table or topic): rows from
 * many closed traces share one insert, at `maxRows` rows or once the oldest queued row is
 * `maxAgeMs` old. A failed write is retried with the same rows, with backoff, until it succeeds or
 * the queue is closed past its grace period; meanwhile new rows keep queueing up to
 * `maxQueuedRows`, beyond which the oldest are dropped and counted (every buffer is bounded).
 *
 * Unlike the writer's Batcher nothing waits on a write here: the assembler's input is already
 * committed (see assembler.ts), so the queue only has to be bounded and keep trying.
 */

export interface RowQueueOptions<T> {
  maxRows: number;
  maxAgeMs: number;
  maxQueuedRows: number;
  /** Delays between attempts of a failed write. */
  backoff: Backoff;
  /**
   * Writes a batch. A failure that retrying cannot fix (a PermanentError: a row that cannot be
   * encoded) drops the batch, counted, instead of blocking the queue forever.
   */
  write: (rows: T[]) => Promise<void>;
  nowMs: () => number;
  onWritten: (rows: number, seconds: number) => void;
  onFailure: (error: unknown, attempt: number) => void;
  onDropped: (rows: number) => void;
}

/** Dropped rows are cut off the front of the queue's array once they are this many and its half. */
const COMPACT_AFTER_ROWS = 1_024;

export class RowQueue<T> {
  /**
   * The queue is `pending` from `head` on. Dropping the oldest only moves `head` (the array is cut
   * now and then): a queue at its bound drops on every push, and cutting the array each time made a
   * burst of pushes quadratic (closing 100,000+ open traces at a stop took minutes).
   */
  private pending: T[] = [];
  private head = 0;
  private firstAtMs = 0;
  private flushing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private closeDeadlineMs: number | undefined;

  constructor(private readonly options: RowQueueOptions<T>) {}

  /** Rows waiting for a write (not counting a batch being written). */
  get queued(): number {
    return this.pending.length - this.head;
  }

  push(rows: readonly T[]): void {
    if (rows.length === 0) return;
    if (this.queued === 0) this.firstAtMs = this.options.nowMs();
    for (const row of rows) this.pending.push(row);
    const excess = this.queued - this.options.maxQueuedRows;
    if (excess > 0) {
      // Released now, not at the next cut: the bound holds for the rows' memory, not only their count.
      for (let index = this.head; index < this.head + excess; index++) this.pending[index] = undefined as T;
      this.head += excess;
      if (this.head >= COMPACT_AFTER_ROWS && this.head * 2 >= this.pending.length) this.compact();
      this.options.onDropped(excess);
    }
    if (this.queued >= this.options.maxRows) this.kick();
    else this.arm();
  }

  /** Writes everything queued, then stops; gives up on a failing write after `graceMs` (counted as dropped). */
  async close(graceMs = 15_000): Promise<void> {
    this.closeDeadlineMs = this.options.nowMs() + graceMs;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    while (this.flushing !== undefined || this.queued > 0) {
      if (this.flushing === undefined) this.kick();
      await this.flushing;
    }
  }

  private arm(): void {
    if (this.timer !== undefined || this.flushing !== undefined || this.closeDeadlineMs !== undefined) return;
    const waitMs = Math.max(0, this.firstAtMs + this.options.maxAgeMs - this.options.nowMs());
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.kick();
    }, waitMs);
    // A pending write never keeps the process alive on its own; close() flushes explicitly.
    this.timer.unref();
  }

  private kick(): void {
    if (this.flushing !== undefined || this.queued === 0) return;
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.compact();
    const batch = this.pending.length > this.options.maxRows ? this.pending.slice(0, this.options.maxRows) : this.pending;
    this.pending = batch === this.pending ? [] : this.pending.slice(batch.length);
    if (this.queued > 0) this.firstAtMs = this.options.nowMs();
    this.flushing = this.writeWithRetry(batch).finally(() => {
      this.flushing = undefined;
      if (this.closeDeadlineMs !== undefined) return; // close() drives the rest
      if (this.queued >= this.options.maxRows) this.kick();
      else if (this.queued > 0) this.arm();
    });
  }

  private async writeWithRetry(batch: T[]): Promise<void> {
    const startedMs = this.options.nowMs();
    try {
      await retryWithBackoff(() => this.options.write(batch), {
        backoff: this.options.backoff,
        deadlineMs: () => this.closeDeadlineMs,
        nowMs: this.options.nowMs,
        onFailure: this.options.onFailure,
      });
    } catch (error) {
      if (isPermanentError(error)) {
        this.options.onDropped(batch.length);
        return;
      }
      // Closing, and the store still failing past the grace period: nothing left will be written.
      this.options.onDropped(batch.length + this.queued);
      this.pending = [];
      this.head = 0;
      return;
    }
    this.options.onWritten(batch.length, (this.options.nowMs() - startedMs) / 1000);
  }

  /** Cuts the dropped rows off the front of the array. */
  private compact(): void {
    if (this.head === 0) return;
    this.pending = this.pending.slice(this.head);
    this.head = 0;
  }
}
