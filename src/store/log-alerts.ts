/** Log alerts as the logminer writes them (a new version per change, the newest wins) and re-reads them. */

import type { LogAlert as MinedAlert } from '../mining/alert-types.js';
import type { Store } from '../model/store.js';
import { encodeLines } from './compact-json.js';
import { ALERT_COLUMNS_SQL, type StoredAlert } from './reads/log-alert-shape.js';
import { PermanentError } from '../util/retry.js';

const ALERT_COLUMNS = [
  'alert_id',
  'kind',
  'template_id',
  'service',
  'template',
  'started_at_ns',
  'last_at_ns',
  'window_count',
  'peak_count',
  'baseline_per_window',
  'baseline_day',
  'baseline_week',
  'example_trace_ids',
  'published',
  'updated_at_ms',
] as const;

const U64_DECIMAL = /^\d{1,20}$/;
const ALERT_ID = /^[0-9a-f]{16}$/;
const s = JSON.stringify;

export interface AlertVersion {
  /** The detector's alert; only the trace ids of example_traces are stored (stories are looked up on read). */
  alert: MinedAlert;
  published: boolean;
  updatedAtMs: number;
}

function finite(value: number): number {
  if (!Number.isFinite(value)) throw new PermanentError('alert numbers must be finite');
  return value;
}

function alertLine({ alert: a, published, updatedAtMs }: AlertVersion): string {
  if (!U64_DECIMAL.test(a.template_id) || !ALERT_ID.test(a.alert_id)) throw new PermanentError('alert_id must be 16 hex and template_id a u64 decimal');
  const optional = (v: number | undefined) => (v === undefined ? 'null' : String(finite(v)));
  return (
    `[${s(a.alert_id)},${s(a.kind)},${a.template_id},${s(a.service)},${s(a.template)},${a.started_at_ns},${a.last_at_ns},` +
    `${Math.max(0, Math.floor(a.window_count))},${Math.max(0, Math.floor(a.peak_count))},${finite(a.baseline_per_window)},` +
    `${optional(a.baseline_day)},${optional(a.baseline_week)},${s(a.example_traces.map((t) => t.trace_id))},${published},${Math.floor(updatedAtMs)}]\n`
  );
}

/** Writes one version of each alert in one insert. */
export async function insertAlertVersions(store: Store, rows: readonly AlertVersion[]): Promise<void> {
  if (rows.length === 0) return;
  await store.insertRaw('log_alerts', ALERT_COLUMNS, encodeLines(rows, alertLine));
}

/** Alerts whose newest version is not published and was last seen at or after `sinceNs`, oldest first. */
export async function readUnpublishedAlerts(store: Store, sinceNs: bigint, limit: number): Promise<StoredAlert[]> {
  return store.query<StoredAlert>(
    `SELECT * FROM (
       SELECT ${ALERT_COLUMNS_SQL}, argMax(published, updated_at_ms) AS a_published
       FROM log_alerts
       WHERE last_at_ns >= {since_ns:Int64}
       GROUP BY alert_id
     )
     WHERE NOT a_published AND a_last_at_ns >= {since_ns:Int64}
     ORDER BY a_started_at_ns, alert_id
     LIMIT {limit:UInt32}`,
    { since_ns: sinceNs, limit },
  );
}

/** The newest version of the latest spike alert of each template seen at or after `sinceNs`. */
export async function readLatestSpikes(store: Store, sinceNs: bigint): Promise<StoredAlert[]> {
  return store.query<StoredAlert>(
    `SELECT * FROM (
       SELECT ${ALERT_COLUMNS_SQL}
       FROM log_alerts
       WHERE kind = 'spike' AND last_at_ns >= {since_ns:Int64}
       GROUP BY alert_id
     )
     ORDER BY a_last_at_ns DESC
     LIMIT 1 BY a_template_id`,
    { since_ns: sinceNs },
  );
}

/** A stored alert back in the detector's shape (example traces without story ids). */
export function storedToMined(row: StoredAlert): MinedAlert {
  const alert: MinedAlert = {
    alert_id: row.alert_id,
    kind: row.a_kind,
    template_id: row.a_template_id,
    service: row.a_service,
    template: row.a_template,
    started_at_ns: BigInt(row.a_started_at_ns),
    last_at_ns: BigInt(row.a_last_at_ns),
    window_count: Number(row.a_window_count),
    peak_count: Number(row.a_peak_count),
    baseline_per_window: row.a_baseline_per_window,
    example_traces: row.a_example_trace_ids.map((traceId) => ({ trace_id: traceId, story_id: null })),
  };
  if (row.a_baseline_day !== null) alert.baseline_day = row.a_baseline_day;
  if (row.a_baseline_week !== null) alert.baseline_week = row.a_baseline_week;
  return alert;
}
