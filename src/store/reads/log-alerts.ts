/** Log alerts overlapping a window, in the contract's Log alert shape. */

import type { QueryOptions, QueryParams, Store } from '../../model/store.js';
import { oldestAllowedNs } from '../lifetimes.js';
import { ALERT_COLUMNS_SQL, toLogAlert, tracesWithStories, type LogAlert, type StoredAlert } from './log-alert-shape.js';

export interface AlertFilter {
  /** Overlap: last seen at or after fromNs, started before toNs. */
  fromNs: bigint;
  toNs: bigint;
  kind?: 'new' | 'spike' | 'silence';
  service?: string;
  templateId?: string;
}

/** Up to `limit` alerts overlapping the range, newest last_at first; `active` judged at `endMs`. */
export async function readLogAlerts(
  store: Store,
  filter: AlertFilter,
  endMs: number,
  nowMs: number,
  limit: number,
  options: QueryOptions,
): Promise<LogAlert[]> {
  const where = ['last_at_ns >= {from_ns:Int64}'];
  const params: QueryParams = { from_ns: filter.fromNs, to_ns: filter.toNs, limit };
  // kind, service and template never change between an alert's versions: filtering rows is safe.
  if (filter.kind !== undefined) {
    where.push('kind = {kind:String}');
    params.kind = filter.kind;
  }
  if (filter.service !== undefined) {
    where.push('service = {service:String}');
    params.service = filter.service;
  }
  if (filter.templateId !== undefined) {
    where.push('template_id = {template_id:UInt64}');
    params.template_id = filter.templateId;
  }
  const rows = await store.query<StoredAlert>(
    `SELECT * FROM (
       SELECT ${ALERT_COLUMNS_SQL}
       FROM log_alerts
       WHERE ${where.join(' AND ')}
       GROUP BY alert_id
     )
     WHERE a_started_at_ns < {to_ns:Int64}
     ORDER BY a_last_at_ns DESC, alert_id
     LIMIT {limit:UInt32}`,
    params,
    options,
  );
  if (rows.length === 0) return [];
  const withStories = await tracesWithStories(store, [...new Set(rows.flatMap((r) => r.a_example_trace_ids))], oldestAllowedNs('stories', nowMs), options);
  return rows.map((r) => toLogAlert(r, endMs, withStories));
}
