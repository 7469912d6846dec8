/** Service-to-service calls from the per-minute service_edges table. */

import type { QueryOptions, Store } from '../../model/store.js';

export interface EdgeTotals {
  parent: string;
  child: string;
  calls: number;
  errors: number;
  durationNsSum: bigint;
}

/**
 * Calls per (parent, child) summed over the minutes that start inside [fromSecs, toSecs)
 * (the table's resolution is one minute). Sums, because SummingMergeTree merges are eventual.
 */
export async function readEdgeTotals(store: Store, range: { fromSecs: number; toSecs: number }, options: QueryOptions): Promise<EdgeTotals[]> {
  const rows = await store.query<{ parent: string; child: string; calls: string; errors: string; duration_ns_sum: string }>(
    `SELECT parent, child, sum(calls) AS calls, sum(errors) AS errors, sum(duration_ns_sum) AS duration_ns_sum
     FROM service_edges
     WHERE minute >= toDateTime({from_s:Int64}) AND minute < toDateTime({to_s:Int64})
     GROUP BY parent, child
     ORDER BY calls DESC, parent, child`,
    { from_s: range.fromSecs, to_s: range.toSecs },
    options,
  );
  return rows.map((row) => ({
    parent: row.parent,
    child: row.child,
    calls: Number(row.calls),
    errors: Number(row.errors),
    durationNsSum: BigInt(row.duration_ns_sum),
  }));
}
