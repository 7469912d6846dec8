/** Retry timing: exponential backoff and the target's Retry-After, both capped at 300 s (contract). */
import { backoffDelayMs, type Backoff } from '../util/retry.js';

export const MAX_RETRY_DELAY_MS = 300_000;
const DELIVERY_BACKOFF: Backoff = { firstMs: 1_000, maxMs: MAX_RETRY_DELAY_MS };

/**
 * Delay before the attempt after `attemptsDone` failed ones: 1 s, 2 s, 4 s, ... capped at 300 s.
 * No jitter: one notifier process sends to each target, so there is no herd to spread.
 */
export function backoffMs(attemptsDone: number): number {
  return backoffDelayMs(attemptsDone, DELIVERY_BACKOFF);
}

/**
 * A Retry-After header (delay in seconds, or an HTTP date) as milliseconds from `nowMs`; undefined
 * when absent or unreadable. Clamped to 0..300 s: the contract caps waits at 300 s, so a target
 * asking for hours cannot stall its queue for hours.
 */
export function retryAfterMs(header: string | null, nowMs: number): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  let delayMs: number;
  if (/^\d+$/.test(value)) delayMs = Number(value) * 1_000;
  else {
    // An HTTP date names its month; Date.parse alone would take '-5' as a year.
    if (!/[A-Za-z]/.test(value)) return undefined;
    const atMs = Date.parse(value);
    if (Number.isNaN(atMs)) return undefined;
    delayMs = atMs - nowMs;
  }
  return Math.min(MAX_RETRY_DELAY_MS, Math.max(0, delayMs));
}
