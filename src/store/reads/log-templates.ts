/** Template rows and per-template flags for the log template routes. */

import type { QueryOptions, Store } from '../../model/store.js';
import { oldestAllowedNs } from '../lifetimes.js';
import { ALERT_ACTIVE_MS } from './log-alert-shape.js';

export interface TemplateInfoRow {
  template_id: string;
  service: string;
  template: string;
  count: number;
  first_seen_ns: bigint;
  last_seen_ns: bigint;
  max_severity: number;
  sample: string;
}

/** The newest version of each given template still within the templates lifetime. */
export async function readTemplateRows(
  store: Store,
  templateIds: readonly string[],
  nowMs: number,
  options: QueryOptions,
): Promise<Map<string, TemplateInfoRow>> {
  if (templateIds.length === 0) return new Map();
  const rows = await store.query<{ id: string; service: string; text: string; n: string; first_ns: string; last_ns: string; sev: number; sample_text: string }>(
    `SELECT toString(template_id) AS id, argMax(service, updated_at_ms) AS service, argMax(template, updated_at_ms) AS text,
       argMax(count, updated_at_ms) AS n, argMax(first_seen_ns, updated_at_ms) AS first_ns, argMax(last_seen_ns, updated_at_ms) AS last_ns,
       argMax(max_severity, updated_at_ms) AS sev, argMax(sample, updated_at_ms) AS sample_text
     FROM templates
     WHERE template_id IN {ids:Array(UInt64)} AND last_seen_ns >= {oldest_ns:Int64}
     GROUP BY template_id`,
    { ids: templateIds.map((id) => BigInt(id)), oldest_ns: oldestAllowedNs('templates', nowMs) },
    options,
  );
  return new Map(
    rows.map((r) => [
      r.id,
      {
        template_id: r.id,
        service: r.service,
        template: r.text,
        count: Number(r.n),
        first_seen_ns: BigInt(r.first_ns),
        last_seen_ns: BigInt(r.last_ns),
        max_severity: Number(r.sev),
        sample: r.sample_text,
      },
    ]),
  );
}

/** Which of the templates have a `new` or `spike` alert active at `endMs` (started by then, last seen within 10 minutes before). */
export async function readAlertingTemplates(store: Store, templateIds: readonly string[], endMs: number, options: QueryOptions): Promise<Set<string>> {
  if (templateIds.length === 0) return new Set();
  const endNs = BigInt(endMs) * 1_000_000n;
  const rows = await store.query<{ id: string }>(
    `SELECT DISTINCT toString(tid) AS id FROM (
       SELECT alert_id, argMax(template_id, updated_at_ms) AS tid, argMax(kind, updated_at_ms) AS k,
         argMax(started_at_ns, updated_at_ms) AS started, argMax(last_at_ns, updated_at_ms) AS last
       FROM log_alerts
       WHERE template_id IN {ids:Array(UInt64)} AND last_at_ns >= {active_from_ns:Int64} AND kind != 'silence'
       GROUP BY alert_id
     )
     WHERE started <= {end_ns:Int64} AND last >= {active_from_ns:Int64}`,
    { ids: templateIds.map((id) => BigInt(id)), end_ns: endNs, active_from_ns: endNs - BigInt(ALERT_ACTIVE_MS) * 1_000_000n },
    options,
  );
  return new Set(rows.map((r) => r.id));
}

export interface RecentHit {
  ts_ns: bigint;
  trace_id: string;
  span_id: string;
  severity_number: number;
}

/** A template's newest hits in [fromNs, toNs), each log once, newest first, at most `limit`. */
export async function readRecentHits(
  store: Store,
  key: { service: string; templateId: string },
  fromNs: bigint,
  toNs: bigint,
  limit: number,
  options: QueryOptions,
): Promise<RecentHit[]> {
  // Read by sort key, newest first; a replayed line sits next to its twin (same ts), so a few
  // extra rows are enough to drop duplicates here instead of deduplicating the whole range.
  const rows = await store.query<{ ts: string; lid: string; tid: string; sid: string; sev: number }>(
    `SELECT ts_ns AS ts, toString(log_id) AS lid, trace_id AS tid, span_id AS sid, severity_number AS sev
     FROM template_hits
     WHERE service = {service:String} AND template_id = {template_id:UInt64} AND ts_ns >= {from_ns:Int64} AND ts_ns < {to_ns:Int64}
     ORDER BY ts_ns DESC, log_id
     LIMIT {rows:UInt32}`,
    { service: key.service, template_id: key.templateId, from_ns: fromNs, to_ns: toNs, rows: limit * 4 },
    options,
  );
  const seen = new Set<string>();
  const out: RecentHit[] = [];
  for (const r of rows) {
    if (seen.has(r.lid)) continue;
    seen.add(r.lid);
    out.push({ ts_ns: BigInt(r.ts), trace_id: r.tid, span_id: r.sid, severity_number: Number(r.sev) });
    if (out.length === limit) break;
  }
  return out;
}
