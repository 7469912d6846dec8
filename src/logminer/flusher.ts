/**
 * The logminer's write buffer: hits, per-minute count deltas and changed templates, written
 * after `max_batch` hits or `flush_ms`, one flush at a time. Each add resolves once its rows are
 * stored, so the bus commits a batch only after its hits and templates are safe.
 *
 * A failed flush is retried with backoff. Its steps are not repeated once done: hits and template
 * versions are idempotent, but minute counts are summed, so they are written last and once.
 */
import type { Store } from '../model/store.js';
import { insertMinuteCounts, type MinuteCountRow } from '../store/template-minutes.js';
import { insertTemplateHits, type TemplateHitRow } from '../store/template-hits.js';
import { upsertTemplates, type TemplateRow } from '../store/templates.js';
import { retryWithBackoff, STORE_WRITE_BACKOFF, type Backoff } from '../util/retry.js';
import { at } from '../util/at.js';

export interface FlusherOptions {
  store: Store;
  maxBatch: number;
  flushMs: number;
  /** Rows of the changed templates as they stand now. */
  templateRows(ids: ReadonlySet<string>): TemplateRow[];
  onFailure(error: unknown, attempt: number): void;
  /** Delays between attempts of a failed flush (STORE_WRITE_BACKOFF by default). */
  backoff?: Backoff;
  nowMs?: () => number;
}

interface Pending {
  hits: TemplateHitRow[];
  /** Count deltas by template, then minute: no key string built per hit. */
  minutes: Map<string, Map<number, MinuteCountRow>>;
  dirty: Set<string>;
  waiters: { resolve: () => void; reject: (error: unknown) => void }[];
}

const emptyPending = (): Pending => ({ hits: [], minutes: new Map(), dirty: new Set(), waiters: [] });

export class Flusher {
  private pending = emptyPending();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  /** Set once close() has waited its grace: a failing flush then gives up at its next failure. */
  private closeDeadlineMs: number | undefined;

  constructor(private readonly options: FlusherOptions) {}

  /** Hits not yet stored. */
  get pendingHits(): number {
    return this.pending.hits.length;
  }

  /** Queues one mined line's rows; the caller awaits `commitPoint()` after its batch. */
  addHit(hit: TemplateHitRow, minute: number): void {
    const p = this.pending;
    p.hits.push(hit);
    p.dirty.add(hit.templateId);
    let rows = p.minutes.get(hit.templateId);
    if (rows === undefined) p.minutes.set(hit.templateId, (rows = new Map()));
    const row = rows.get(minute);
    if (row === undefined) rows.set(minute, { service: hit.service, templateId: hit.templateId, minute, hits: 1 });
    else row.hits++;
  }

  /** Resolves once everything queued so far is stored; starts a flush when the batch is full. */
  commitPoint(): Promise<void> {
    const p = this.pending;
    if (p.hits.length === 0 && p.dirty.size === 0) return this.running ?? Promise.resolve();
    const done = new Promise<void>((resolve, reject) => p.waiters.push({ resolve, reject }));
    if (p.hits.length >= this.options.maxBatch) this.kick();
    else if (this.timer === undefined) {
      // Not unref'd: a waiter is pending on it, and close() clears it by flushing at once.
      this.timer = setTimeout(() => this.kick(), this.options.flushMs);
    }
    return done;
  }

  /** Writes everything queued now (detection reads the hits it just mined). */
  async flushNow(): Promise<void> {
    const waiting = this.commitPoint();
    this.kick();
    await waiting;
  }

  /** Flushes what is left; a store that keeps failing gets `graceMs` before the waiters are rejected. */
  async close(graceMs = 15_000): Promise<void> {
    const waiting = this.commitPoint();
    this.kick();
    const timeout = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs).unref());
    const result = await Promise.race([waiting.then(() => 'done' as const), timeout]);
    this.closeDeadlineMs = (this.options.nowMs ?? Date.now)();
    if (result === 'timeout') await this.running?.catch(() => undefined);
  }

  private kick(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.running !== undefined) return; // the loop picks the new batch up when done
    this.running = this.loop().finally(() => {
      this.running = undefined;
    });
  }

  private async loop(): Promise<void> {
    while (this.pending.waiters.length > 0 || this.pending.hits.length > 0) {
      const batch = this.pending;
      this.pending = emptyPending();
      try {
        await this.write(batch);
        for (const w of batch.waiters) w.resolve();
      } catch (error) {
        for (const w of batch.waiters) w.reject(error);
      }
    }
  }

  private async write(batch: Pending): Promise<void> {
    const { store } = this.options;
    const steps: (() => Promise<void>)[] = [
      () => insertTemplateHits(store, batch.hits),
      () => upsertTemplates(store, this.options.templateRows(batch.dirty)),
      () =>
        insertMinuteCounts(
          store,
          [...batch.minutes.values()].flatMap((rows) => [...rows.values()]),
        ),
    ];
    let step = 0;
    // A PermanentError (rows that cannot be encoded never will be) ends it at once; past close's
    // grace there is no time left to wait.
    await retryWithBackoff(
      async () => {
        for (; step < steps.length; step++) await at(steps, step)();
      },
      {
        backoff: this.options.backoff ?? STORE_WRITE_BACKOFF,
        deadlineMs: () => this.closeDeadlineMs,
        nowMs: this.options.nowMs,
        onFailure: (error, attempt) => this.options.onFailure(error, attempt),
      },
    );
  }
}
