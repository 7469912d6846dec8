/**
 * The notifier's delivery records (notifier_deliveries): one logical row per alert and target
 * NAME (never the URL), the newest updated_at_ms winning. `pending` is written before the first
 * attempt, so an alert whose batch was committed is never forgotten across a restart.
 */

import type { Store } from '../model/store.js';
import { oldestAllowedMs } from './lifetimes.js';
import { ALERT_COLUMNS_SQL, type StoredAlert } from './reads/log-alert-shape.js';

export type DeliveryResult = 'pending' | 'delivered' | 'failed' | 'stale';

export interface DeliveryRecord {
  alertId: string;
  /** The target's name from the settings. */
  target: string;
  result: DeliveryResult;
  attempts: number;
  updatedAtMs: number;
}

export interface DeliveryState {
  result: DeliveryResult;
  attempts: number;
}

const COLUMNS = ['alert_id', 'target', 'result', 'attempts', 'updated_at_ms'] as const;

/** Key of an alert and target in the maps this module returns. */
export function deliveryKey(alertId: string, target: string): string {
  return `${target}\u0000${alertId}`;
}

/** Writes delivery states in one insert. */
export async function recordDeliveries(store: Store, records: readonly DeliveryRecord[]): Promise<void> {
  if (records.length === 0) return;
  await store.insert(
    'notifier_deliveries',
    COLUMNS,
    records.map((r) => [r.alertId, r.target, r.result, r.attempts, Math.floor(r.updatedAtMs)]),
  );
}

/** The newest state per alert and target for `alertIds`, within the table's lifetime; keyed by deliveryKey. */
export async function readDeliveries(store: Store, alertIds: readonly string[], nowMs: number): Promise<Map<string, DeliveryState>> {
  const out = new Map<string, DeliveryState>();
  if (alertIds.length === 0) return out;
  const rows = await store.query<{ alert_id: string; target: string; result: DeliveryResult; attempts: number | string }>(
    `SELECT alert_id, target, argMax(result, updated_at_ms) AS result, argMax(attempts, updated_at_ms) AS attempts
     FROM notifier_deliveries
     WHERE alert_id IN {ids:Array(String)} AND updated_at_ms >= {oldest_ms:Int64}
     GROUP BY alert_id, target`,
    { ids: alertIds, oldest_ms: oldestAllowedMs('notifier_deliveries', nowMs) },
  );
  for (const row of rows) out.set(deliveryKey(row.alert_id, row.target), { result: String(row.result) as DeliveryResult, attempts: Number(row.attempts) });
  return out;
}

export interface PendingDelivery {
  target: string;
  attempts: number;
  alert: StoredAlert;
}

/**
 * Deliveries left `pending` (by a stop or crash) for `targets`, oldest first, at most `limitPerTarget`
 * each, with their alert's newest stored version. A pending delivery whose alert is not stored is not
 * returned: it resumes when the alert is read from the topic again.
 */
export async function readPendingDeliveries(
  store: Store,
  targets: readonly string[],
  kinds: readonly string[],
  nowMs: number,
  limitPerTarget: number,
): Promise<PendingDelivery[]> {
  if (targets.length === 0 || kinds.length === 0) return [];
  const pending = await store.query<{ alert_id: string; target: string; attempts: number | string }>(
    `SELECT alert_id, target, attempts FROM (
       SELECT alert_id, target, argMax(result, updated_at_ms) AS result, argMax(attempts, updated_at_ms) AS attempts,
              max(updated_at_ms) AS at_ms
       FROM notifier_deliveries
       WHERE target IN {targets:Array(String)} AND updated_at_ms >= {oldest_ms:Int64}
       GROUP BY alert_id, target
     )
     WHERE result = 'pending'
     ORDER BY at_ms
     LIMIT {limit:UInt32} BY target`,
    { targets, oldest_ms: oldestAllowedMs('notifier_deliveries', nowMs), limit: limitPerTarget },
  );
  if (pending.length === 0) return [];
  const alerts = await store.query<StoredAlert>(
    `SELECT * FROM (SELECT ${ALERT_COLUMNS_SQL} FROM log_alerts WHERE alert_id IN {ids:Array(String)} GROUP BY alert_id)
     WHERE a_kind IN {kinds:Array(String)}`,
    { ids: [...new Set(pending.map((row) => row.alert_id))], kinds },
  );
  const byId = new Map(alerts.map((alert) => [alert.alert_id, alert]));
  const out: PendingDelivery[] = [];
  for (const row of pending) {
    const alert = byId.get(row.alert_id);
    if (alert !== undefined) out.push({ target: row.target, attempts: Number(row.attempts), alert });
  }
  return out;
}
