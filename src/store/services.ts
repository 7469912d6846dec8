/** The service list: names with spans in the last 24 h, from the per-minute span_services table. */

import type { QueryOptions, Store } from '../model/store.js';

/** Contract limit: services listed. */
export const MAX_SERVICES = 500;
const WINDOW_MS = 86_400_000;

/**
 * Sorted service names with spans in the 24 h before `nowMs` (to the minute: the minute holding
 * the window start counts whole), at most 500.
 */
export async function listServices(store: Store, nowMs: number, options: QueryOptions = {}): Promise<string[]> {
  const fromMinuteSecs = Math.floor((nowMs - WINDOW_MS) / 60_000) * 60;
  const rows = await store.query<{ service_name: string }>(
    `SELECT service_name
     FROM span_services
     WHERE minute >= toDateTime({from_s:Int64})
     GROUP BY service_name
     ORDER BY service_name
     LIMIT {limit:UInt32}`,
    { from_s: fromMinuteSecs, limit: MAX_SERVICES },
    options,
  );
  return rows.map((r) => r.service_name);
}
