/** What to do with an alert for one target, from what is known about that pair. Pure. */

import type { DeliveryState } from '../store/deliveries.js';
import type { MemoryState } from './delivery-memory.js';

export type DeliveryAction =
  /** Already queued here, or already delivered or failed: never sent twice. */
  | { kind: 'skip' }
  /** Older than max_age_secs: recorded `stale`, not sent. */
  | { kind: 'stale' }
  /** Pending with no attempts left (a stop between the last attempt and its record): recorded `failed`. */
  | { kind: 'fail'; attempts: number }
  /** Sent from the target's queue; `record` when `pending` still has to be written. */
  | { kind: 'queue'; attempts: number; record: boolean };

/**
 * `stale` is final only for copies that are still stale: an alert that keeps lasting (a silence,
 * a spike refreshed as last_at grows) is delivered when a fresh copy arrives, once.
 */
export function planDelivery(memory: MemoryState | undefined, stored: DeliveryState | undefined, stale: boolean, maxAttempts: number): DeliveryAction {
  if (memory === 'queued' || memory === 'delivered' || memory === 'failed') return { kind: 'skip' };
  if (stored?.result === 'delivered' || stored?.result === 'failed') return { kind: 'skip' };
  if (stale) return memory === 'stale' || stored?.result === 'stale' ? { kind: 'skip' } : { kind: 'stale' };
  if (stored?.result === 'pending') {
    return stored.attempts >= maxAttempts ? { kind: 'fail', attempts: stored.attempts } : { kind: 'queue', attempts: stored.attempts, record: false };
  }
  return { kind: 'queue', attempts: 0, record: true };
}
