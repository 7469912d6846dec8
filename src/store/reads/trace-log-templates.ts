/** The log templates hit by one trace's logs, each with the template's alert around the trace. */

import type { QueryOptions, Store } from '../../model/store.js';
import { oldestAllowedNs } from '../lifetimes.js';
import { ALERT_COLUMNS_SQL, toLogAlert, tracesWithStories, type LogAlert, type StoredAlert } from './log-alert-shape.js';

/** An alert belongs to a trace when it started at most this long after the trace... */
const STARTED_AFTER_MAX_NS = 5n * 60_000_000_000n;
/** ...and was last seen at most this long before it. */
const LAST_SEEN_BEFORE_MAX_NS = 10n * 60_000_000_000n;

export interface TraceLogTemplate {
  log_id: string;
  template_id: string;
  template: string;
  alert: LogAlert | null;
}

/** One item per mined log line of the trace, in log time order; [] before the log miner has written hits. */
export async function readTraceLogTemplates(store: Store, traceId: string, nowMs: number, options: QueryOptions): Promise<TraceLogTemplate[]> {
  // Aliases differ from the columns: ClickHouse would otherwise read the aliases in ORDER/LIMIT BY.
  const hits = await store.query<{ log_id: string; template_id: string; ts_ns: string }>(
    `SELECT log_text AS log_id, template_text AS template_id, hit_ns AS ts_ns FROM (
       SELECT toString(log_id) AS log_text, toString(template_id) AS template_text, ts_ns AS hit_ns, log_id AS hit_log_id
       FROM template_hits
       WHERE trace_id = {trace_id:String} AND ts_ns >= {oldest_ns:Int64}
       ORDER BY ts_ns, log_id
       LIMIT 1 BY log_id
     )
     ORDER BY hit_ns, hit_log_id`,
    { trace_id: traceId, oldest_ns: oldestAllowedNs('template_hits', nowMs) },
    options,
  );
  if (hits.length === 0) return [];
  const templateIds = [...new Set(hits.map((hit) => hit.template_id))];
  const [templates, alerts, traceStartNs] = await Promise.all([
    readTemplateTexts(store, templateIds, nowMs, options),
    readTemplateAlerts(store, templateIds, nowMs, options),
    readTraceStartNs(store, traceId, nowMs, options),
  ]);
  // A trace whose spans expired or never came is placed at its first mined log.
  const traceNs = traceStartNs ?? hits.reduce((min, hit) => (BigInt(hit.ts_ns) < min ? BigInt(hit.ts_ns) : min), BigInt(hits[0].ts_ns));
  const alertOf = pickAlerts(alerts, traceNs);
  const withStories = await tracesWithStories(
    store,
    [...new Set([...alertOf.values()].flatMap((alert) => alert.a_example_trace_ids))],
    oldestAllowedNs('stories', nowMs),
    options,
  );
  const items: TraceLogTemplate[] = [];
  for (const hit of hits) {
    const template = templates.get(hit.template_id);
    if (template === undefined) continue; // the template itself passed its lifetime
    const alert = alertOf.get(hit.template_id);
    items.push({ log_id: hit.log_id, template_id: hit.template_id, template, alert: alert === undefined ? null : toLogAlert(alert, nowMs, withStories) });
  }
  return items;
}

/** Per template: its new or spike alert around the trace; spike wins over new, then the latest started. */
function pickAlerts(alerts: StoredAlert[], traceNs: bigint): Map<string, StoredAlert> {
  const chosen = new Map<string, StoredAlert>();
  for (const alert of alerts) {
    if (alert.a_kind === 'silence') continue;
    if (BigInt(alert.a_started_at_ns) > traceNs + STARTED_AFTER_MAX_NS) continue;
    if (BigInt(alert.a_last_at_ns) < traceNs - LAST_SEEN_BEFORE_MAX_NS) continue;
    const current = chosen.get(alert.a_template_id);
    const better =
      current === undefined ||
      (alert.a_kind === 'spike' && current.a_kind !== 'spike') ||
      (alert.a_kind === current.a_kind && BigInt(alert.a_started_at_ns) > BigInt(current.a_started_at_ns));
    if (better) chosen.set(alert.a_template_id, alert);
  }
  return chosen;
}

async function readTemplateTexts(store: Store, templateIds: string[], nowMs: number, options: QueryOptions): Promise<Map<string, string>> {
  const rows = await store.query<{ id: string; text: string }>(
    `SELECT toString(template_id) AS id, argMax(template, updated_at_ms) AS text
     FROM templates
     WHERE template_id IN {ids:Array(UInt64)} AND last_seen_ns >= {oldest_ns:Int64}
     GROUP BY template_id`,
    { ids: templateIds.map((id) => BigInt(id)), oldest_ns: oldestAllowedNs('templates', nowMs) },
    options,
  );
  return new Map(rows.map((row) => [row.id, row.text]));
}

async function readTemplateAlerts(store: Store, templateIds: string[], nowMs: number, options: QueryOptions): Promise<StoredAlert[]> {
  return store.query<StoredAlert>(
    `SELECT ${ALERT_COLUMNS_SQL}
     FROM log_alerts
     WHERE template_id IN {ids:Array(UInt64)} AND last_at_ns >= {oldest_ns:Int64}
     GROUP BY alert_id`,
    { ids: templateIds.map((id) => BigInt(id)), oldest_ns: oldestAllowedNs('log_alerts', nowMs) },
    options,
  );
}

/** The trace's first span start, or null without spans in their lifetime. */
async function readTraceStartNs(store: Store, traceId: string, nowMs: number, options: QueryOptions): Promise<bigint | null> {
  const rows = await store.query<{ first_ns: string; n: string }>(
    `SELECT min(start_ns) AS first_ns, count() AS n FROM spans WHERE trace_id = {trace_id:String} AND start_ns >= {oldest_ns:Int64}`,
    { trace_id: traceId, oldest_ns: oldestAllowedNs('spans', nowMs) },
    options,
  );
  return rows.length > 0 && rows[0].n !== '0' ? BigInt(rows[0].first_ns) : null;
}
