/** The overview's alert and data-lag figures, evaluated at the window end. */

import type { QueryOptions, Store } from '../../model/store.js';

/** An alert is active while last seen within this long of the window end (the API's fixed 10 minutes). */
export const ACTIVE_ALERT_MS = 10 * 60_000;
/** Data-lag samples older than this before the window end are stale. */
export const DATA_LAG_LOOKBACK_MS = 300_000;
export const DATA_LAG_METRIC = 'svc_logminer_data_lag_seconds';

/** Log alerts active at `endMs`: started by then and last seen within 10 minutes before it. */
export async function countActiveAlerts(store: Store, endMs: number, oldestNs: bigint, options: QueryOptions): Promise<number> {
  const endNs = BigInt(endMs) * 1_000_000n;
  const rows = await store.query<{ n: string }>(
    `SELECT count() AS n FROM (
       SELECT alert_id, argMax(started_at_ns, updated_at_ms) AS started, argMax(last_at_ns, updated_at_ms) AS last
       FROM log_alerts
       WHERE last_at_ns >= {oldest_ns:Int64}
       GROUP BY alert_id
     )
     WHERE started <= {end_ns:Int64} AND last >= {active_from_ns:Int64}`,
    { oldest_ns: oldestNs, end_ns: endNs, active_from_ns: endNs - BigInt(ACTIVE_ALERT_MS) * 1_000_000n },
    options,
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * The largest of the replicas' newest data-lag samples in the 300 s up to `endMs` (a replica is
 * one scraped job and instance), 0 when there is none.
 */
export async function readDataLagSecs(store: Store, endMs: number, oldestMs: number, options: QueryOptions): Promise<number> {
  const rows = await store.query<{ lag: number | null }>(
    `SELECT max(newest) AS lag FROM (
       SELECT argMax(value, ts_ms) AS newest
       FROM metric_samples
       WHERE metric = {metric:String} AND ts_ms >= {from_ms:Int64} AND ts_ms <= {end_ms:Int64}
       GROUP BY job, instance
     )`,
    { metric: DATA_LAG_METRIC, from_ms: Math.max(endMs - DATA_LAG_LOOKBACK_MS, oldestMs), end_ms: endMs },
    options,
  );
  const lag = rows[0]?.lag;
  return typeof lag === 'number' && Number.isFinite(lag) ? lag : 0;
}
