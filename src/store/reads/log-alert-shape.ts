/** Stored log_alerts rows (newest version per alert) in the contract's Log alert shape. */

import type { QueryOptions, Store } from '../../model/store.js';

/** The API's fixed active window: last seen within 10 minutes of the window end. */
export const ALERT_ACTIVE_MS = 10 * 60_000;

/** Columns selected for an alert, each the newest version's (alias `a_*` keeps them apart from stored names). */
export const ALERT_COLUMNS_SQL = `alert_id,
  toString(argMax(kind, updated_at_ms)) AS a_kind,
  toString(argMax(template_id, updated_at_ms)) AS a_template_id,
  argMax(service, updated_at_ms) AS a_service,
  argMax(template, updated_at_ms) AS a_template,
  argMax(started_at_ns, updated_at_ms) AS a_started_at_ns,
  argMax(last_at_ns, updated_at_ms) AS a_last_at_ns,
  argMax(window_count, updated_at_ms) AS a_window_count,
  argMax(peak_count, updated_at_ms) AS a_peak_count,
  argMax(baseline_per_window, updated_at_ms) AS a_baseline_per_window,
  argMax(baseline_day, updated_at_ms) AS a_baseline_day,
  argMax(baseline_week, updated_at_ms) AS a_baseline_week,
  argMax(example_trace_ids, updated_at_ms) AS a_example_trace_ids`;

export interface StoredAlert {
  alert_id: string;
  a_kind: 'new' | 'spike' | 'silence';
  a_template_id: string;
  a_service: string;
  a_template: string;
  a_started_at_ns: string;
  a_last_at_ns: string;
  a_window_count: string;
  a_peak_count: string;
  a_baseline_per_window: number;
  a_baseline_day: number | null;
  a_baseline_week: number | null;
  a_example_trace_ids: string[];
}

/** The contract's Log alert. */
export interface LogAlert {
  alert_id: string;
  kind: 'new' | 'spike' | 'silence';
  template_id: string;
  service: string;
  template: string;
  started_at_ns: bigint;
  last_at_ns: bigint;
  window_count: number;
  peak_count: number;
  baseline_per_window: number;
  active: boolean;
  example_traces: { trace_id: string; story_id: string | null }[];
  baseline_day?: number;
  baseline_week?: number;
}

/** Which of `traceIds` have a story within its lifetime. */
export async function tracesWithStories(store: Store, traceIds: string[], oldestNs: bigint, options: QueryOptions): Promise<Set<string>> {
  if (traceIds.length === 0) return new Set();
  const rows = await store.query<{ story_id: string }>(
    `SELECT DISTINCT story_id FROM stories WHERE story_id IN {ids:Array(String)} AND ts_ns >= {oldest_ns:Int64}`,
    { ids: traceIds, oldest_ns: oldestNs },
    options,
  );
  return new Set(rows.map((row) => row.story_id));
}

/** Shapes a stored alert; `active` is judged at `endMs`, example traces get their story ids. */
export function toLogAlert(row: StoredAlert, endMs: number, withStories: Set<string>): LogAlert {
  const lastAtNs = BigInt(row.a_last_at_ns);
  const alert: LogAlert = {
    alert_id: row.alert_id,
    kind: row.a_kind,
    template_id: row.a_template_id,
    service: row.a_service,
    template: row.a_template,
    started_at_ns: BigInt(row.a_started_at_ns),
    last_at_ns: lastAtNs,
    window_count: Number(row.a_window_count),
    peak_count: Number(row.a_peak_count),
    baseline_per_window: row.a_baseline_per_window,
    active: lastAtNs >= BigInt(endMs - ALERT_ACTIVE_MS) * 1_000_000n,
    example_traces: row.a_example_trace_ids.map((traceId) => ({ trace_id: traceId, story_id: withStories.has(traceId) ? traceId : null })),
  };
  // Seasonal alerts only: the contract marks both optional, so they are left out when NULL.
  if (row.a_baseline_day !== null) alert.baseline_day = row.a_baseline_day;
  if (row.a_baseline_week !== null) alert.baseline_week = row.a_baseline_week;
  return alert;
}
