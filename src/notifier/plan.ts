/** What to do with an alert for each target, from what is known about each pair. Pure. */

import { deliveryKey, type DeliveryRecord, type DeliveryState } from '../store/deliveries.js';
import type { NotifierAlert } from './alert.js';
import type { MemoryState } from './delivery-memory.js';
import type { Job } from './target-queue.js';

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

/**
 * One decided step for an alert and a target: its memory state, and the record, queue job or drop
 * that goes with it. The notifier writes every step's record first and applies the steps (memory,
 * metrics, queues) only once they are written.
 */
export interface DeliveryStep {
  key: string;
  target: string;
  state: MemoryState;
  record?: DeliveryRecord;
  job?: Job;
  /** The target's queue was full: recorded `failed` without an attempt. */
  dropped?: boolean;
}

/** An alert to plan, the targets to plan it for, and what the store knows of each pair (by deliveryKey). */
export type PlanInput = readonly [NotifierAlert, readonly string[], ReadonlyMap<string, DeliveryState>];

export interface PlanContext {
  /** Whether a target's queue takes `count` more jobs; targets without a queue are not planned. */
  queueRoom: ReadonlyMap<string, (count: number) => boolean>;
  memory: (key: string) => MemoryState | undefined;
  maxAttempts: number;
  isStale: (alert: NotifierAlert) => boolean;
  nowMs: () => number;
  /** The version stamp of a record (strictly increasing). */
  stampMs: () => number;
}

/** Plans every alert of `inputs` for its targets, counting the jobs each queue would take. */
export function planSteps(inputs: Iterable<PlanInput>, context: PlanContext): DeliveryStep[] {
  const steps: DeliveryStep[] = [];
  const plannedJobs = new Map<string, number>();
  for (const [alert, targets, stored] of inputs) {
    const stale = context.isStale(alert);
    for (const target of targets) {
      const hasRoom = context.queueRoom.get(target);
      if (hasRoom === undefined) continue;
      const key = deliveryKey(alert.alert_id, target);
      const known = stored.get(key);
      const action = planDelivery(context.memory(key), known, stale, context.maxAttempts);
      const record = (result: DeliveryRecord['result'], attempts: number): DeliveryRecord => ({
        alertId: alert.alert_id,
        target,
        result,
        attempts,
        updatedAtMs: context.stampMs(),
      });
      if (action.kind === 'skip') {
        // Remembered so the store need not be asked again; nothing to write.
        if (known?.result === 'delivered' || known?.result === 'failed') steps.push({ key, target, state: known.result });
      } else if (action.kind === 'stale') {
        steps.push({ key, target, state: 'stale', record: record('stale', 0) });
      } else if (action.kind === 'fail') {
        steps.push({ key, target, state: 'failed', record: record('failed', action.attempts) });
      } else if (!hasRoom((plannedJobs.get(target) ?? 0) + 1)) {
        steps.push({ key, target, state: 'failed', record: record('failed', action.attempts), dropped: true });
      } else {
        plannedJobs.set(target, (plannedJobs.get(target) ?? 0) + 1);
        steps.push({
          key,
          target,
          state: 'queued',
          record: action.record ? record('pending', 0) : undefined,
          job: { alert, attempts: action.attempts, dueMs: context.nowMs() },
        });
      }
    }
  }
  return steps;
}
