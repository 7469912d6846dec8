/**
 * One target's bounded queue and its sender loop. One attempt runs at a time per target (at most
 * timeout_secs); alerts waiting for a backoff do not hold the queue, so a retrying alert delays
 * others only by its own attempts. A Retry-After pauses the whole target, because it is the
 * target asking for quiet, not one alert.
 */

import type { NotifierTarget } from '../config/settings.js';
import type { Logger } from '../util/log.js';
import type { NotifierAlert } from './alert.js';
import { backoffMs } from './backoff.js';
import { requestBody } from './body.js';
import type { Breaker } from './breaker.js';
import { sendOnce, type AttemptResult } from './send.js';
import { at } from '../util/at.js';

export interface Job {
  alert: NotifierAlert;
  /** Attempts made so far (also before a restart). */
  attempts: number;
  /** Not attempted before this instant. */
  dueMs: number;
}

export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

export interface TargetQueueOptions {
  target: NotifierTarget;
  publicUrl: string;
  maxAttempts: number;
  timeoutMs: number;
  capacity: number;
  breaker: Breaker;
  fetch: typeof fetch;
  nowMs: () => number;
  sleep: Sleep;
  closing: AbortSignal;
  logger: Logger;
  onAttempt(outcome: AttemptResult['kind']): void;
  /** Records a final result; resolves once recorded (or given up on). */
  onFinal(job: Job, result: 'delivered' | 'failed'): Promise<void>;
  /** Records the attempts made so far of an alert that stays pending. */
  onRetry(job: Job): Promise<void>;
  onSizeChange(size: number): void;
}

export class TargetQueue {
  private readonly jobs: Job[] = [];
  private pausedUntilMs = 0;
  private wakeUp: (() => void) | undefined;
  private loop: Promise<void> | undefined;

  constructor(private readonly options: TargetQueueOptions) {}

  get size(): number {
    return this.jobs.length;
  }

  /** True when one more job fits. */
  hasRoom(extra = 1): boolean {
    return this.jobs.length + extra <= this.options.capacity;
  }

  /** Adds a job; false (nothing added) when the queue is full. */
  enqueue(job: Job): boolean {
    if (!this.hasRoom()) return false;
    this.jobs.push(job);
    this.options.onSizeChange(this.jobs.length);
    this.wakeUp?.();
    return true;
  }

  start(): void {
    this.loop ??= this.run();
  }

  /**
   * Waits for the loop to stop once `closing` is aborted. An attempt in flight finishes (at most
   * timeout_secs) and is recorded, so a graceful stop does not resend what the target already took.
   */
  async close(): Promise<void> {
    this.wakeUp?.();
    await this.loop;
  }

  private async run(): Promise<void> {
    const { closing, nowMs } = this.options;
    while (!closing.aborted) {
      const now = nowMs();
      if (this.pausedUntilMs > now) {
        await this.waitForWork(this.pausedUntilMs - now);
        continue;
      }
      const index = this.dueIndex(now);
      if (index < 0) {
        await this.waitForWork(this.nextDueInMs(now));
        continue;
      }
      const job = at(this.jobs.splice(index, 1), 0);
      await this.attempt(job);
      this.options.onSizeChange(this.jobs.length);
    }
  }

  /** The earliest due job (first queued on ties), or -1. */
  private dueIndex(now: number): number {
    let best = -1;
    for (const [i, job] of this.jobs.entries()) {
      if (job.dueMs <= now && (best < 0 || job.dueMs < at(this.jobs, best).dueMs)) best = i;
    }
    return best;
  }

  private nextDueInMs(now: number): number | undefined {
    if (this.jobs.length === 0) return undefined;
    let earliest = Infinity;
    for (const job of this.jobs) earliest = Math.min(earliest, job.dueMs);
    return Math.max(0, earliest - now);
  }

  /** Sleeps until `ms` passes (forever when undefined), a job is added, or the notifier closes. */
  private async waitForWork(ms: number | undefined): Promise<void> {
    if (this.options.closing.aborted) return;
    const stopSleep = new AbortController();
    const woken = new Promise<void>((resolve) => {
      this.wakeUp = resolve;
    });
    const waits = [woken];
    if (ms !== undefined) waits.push(this.options.sleep(ms, AbortSignal.any([stopSleep.signal, this.options.closing])).catch(() => undefined));
    await Promise.race(waits);
    stopSleep.abort();
    this.wakeUp = undefined;
  }

  private async attempt(job: Job): Promise<void> {
    const { target, breaker, logger } = this.options;
    // The breaker limits alerts that meet it open to one attempt; one already being retried when
    // it opened keeps its max_attempts (contract: retried while attempts are left and retryable).
    const onlyAttempt = job.attempts === 0 && breaker.isOpen();
    const result = await sendOnce({
      fetch: this.options.fetch,
      url: target.url,
      body: requestBody(target.kind, job.alert, this.options.publicUrl),
      timeoutMs: this.options.timeoutMs,
      nowMs: this.options.nowMs,
    });
    job.attempts += 1;
    this.options.onAttempt(result.kind);
    if (result.kind === 'ok') {
      const wasOpen = breaker.isOpen();
      breaker.recordSuccess();
      if (wasOpen) logger.info({ target: target.name }, 'notifier target answered: breaker closed');
      await this.options.onFinal(job, 'delivered');
      return;
    }
    if (breaker.recordFailure()) {
      logger.warn(
        { target: target.name, reason: result.reason },
        'notifier target keeps failing: breaker open, each alert gets one attempt until the cooldown ends',
      );
    }
    const base = { target: target.name, alert_id: job.alert.alert_id, attempts: job.attempts, reason: result.reason };
    if (result.kind === 'failed') {
      logger.warn(base, 'alert delivery failed: permanent answer, not retried');
      await this.options.onFinal(job, 'failed');
      return;
    }
    if (onlyAttempt || job.attempts >= this.options.maxAttempts) {
      logger.warn({ ...base, breaker_open: onlyAttempt }, 'alert delivery failed: no attempts left');
      await this.options.onFinal(job, 'failed');
      return;
    }
    const now = this.options.nowMs();
    if (result.retryAfterMs !== undefined) this.pausedUntilMs = Math.max(this.pausedUntilMs, now + result.retryAfterMs);
    job.dueMs = now + (result.retryAfterMs ?? backoffMs(job.attempts));
    logger.debug({ ...base, retry_in_ms: job.dueMs - now }, 'alert delivery attempt failed; retrying');
    this.jobs.push(job);
    await this.options.onRetry(job);
  }
}
