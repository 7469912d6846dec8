/**
 * Template hits per grid bucket over a window. Whole minutes come from template_minutes (one row
 * per template and minute instead of one per line); the partial minutes at the window's edges
 * come from template_hits, deduplicated by log id. Buckets are whole minutes (bucket_secs is a
 * multiple of 60), so the two add up exactly and a total equals the sum of its buckets.
 */

import type { QueryOptions, QueryParams, Store } from '../../model/store.js';
import { oldestAllowedNs } from '../lifetimes.js';
import { NS_PER_MINUTE } from '../../util/time-units.js';

export interface HitCountFilter {
  /** Window [fromNs, toNs). */
  fromNs: bigint;
  toNs: bigint;
  service?: string;
  templateIds?: readonly string[];
  /** Case-insensitive ASCII substring of the template's newest text. */
  q?: string;
  /** For the `q` filter: the templates' lifetime bound at the clock of the request. */
  nowMs: number;
}

export interface TemplateHitCounts {
  template_id: string;
  hits: number;
  buckets: [number, number][];
}

/** SQL and parameters of (template_id, bucket, n) rows over the filter's window. */
function countsSql(filter: HitCountFilter, bucketSecs: number): { sql: string; params: QueryParams } {
  const firstFullMin = (filter.fromNs + NS_PER_MINUTE - 1n) / NS_PER_MINUTE;
  const endFullMin = filter.toNs / NS_PER_MINUTE;
  const hasMinutes = firstFullMin < endFullMin;
  const headEndNs = hasMinutes ? firstFullMin * NS_PER_MINUTE : filter.toNs;
  const tailStartNs = hasMinutes ? endFullMin * NS_PER_MINUTE : filter.toNs;
  const where: string[] = [];
  const params: QueryParams = {
    from_ns: filter.fromNs,
    head_end_ns: headEndNs,
    tail_start_ns: tailStartNs,
    to_ns: filter.toNs,
    from_min: Number(hasMinutes ? firstFullMin : 0n),
    to_min: Number(hasMinutes ? endFullMin : 0n),
    bucket_secs: bucketSecs,
    bucket_ns: BigInt(bucketSecs) * 1_000_000_000n,
  };
  if (filter.service !== undefined) {
    where.push('service = {service:String}');
    params.service = filter.service;
  }
  if (filter.templateIds !== undefined) {
    where.push('template_id IN {ids:Array(UInt64)}');
    params.ids = filter.templateIds.map((id) => BigInt(id));
  }
  if (filter.q !== undefined) {
    where.push(`template_id IN (
      SELECT id FROM (
        SELECT template_id AS id, argMax(template, updated_at_ms) AS text FROM templates
        WHERE last_seen_ns >= {templates_oldest_ns:Int64} GROUP BY template_id
      ) WHERE positionCaseInsensitive(text, {q:String}) > 0)`);
    params.q = filter.q;
    params.templates_oldest_ns = oldestAllowedNs('templates', filter.nowMs);
  }
  const and = where.length === 0 ? '' : ` AND ${where.join(' AND ')}`;
  const hitsPart = (fromParam: string, toParam: string) => `
    SELECT template_id, intDiv(ts_ns, {bucket_ns:Int64}) * {bucket_secs:Int64} AS bucket, uniqExact(log_id) AS n
    FROM template_hits
    WHERE ts_ns >= {${fromParam}:Int64} AND ts_ns < {${toParam}:Int64}${and}
    GROUP BY template_id, bucket`;
  const sql = `
    ${hitsPart('from_ns', 'head_end_ns')}
    UNION ALL
    SELECT template_id, intDiv(toInt64(minute) * 60, {bucket_secs:Int64}) * {bucket_secs:Int64} AS bucket, sum(hits) AS n
    FROM template_minutes
    WHERE minute >= {from_min:UInt32} AND minute < {to_min:UInt32}${and}
    GROUP BY template_id, bucket
    UNION ALL
    ${hitsPart('tail_start_ns', 'to_ns')}`;
  return { sql, params };
}

/** The `limit` templates with most hits in the window, each with its non-empty buckets. */
export async function readTemplateHitCounts(
  store: Store,
  filter: HitCountFilter,
  bucketSecs: number,
  limit: number,
  options: QueryOptions,
): Promise<TemplateHitCounts[]> {
  if (filter.toNs <= filter.fromNs) return [];
  const { sql, params } = countsSql(filter, bucketSecs);
  const rows = await store.query<{ id: string; hits: string; buckets: [string | number, string | number][] }>(
    `SELECT toString(tid) AS id, sum(bn) AS hits, arraySort(groupArray((b, bn))) AS buckets
     FROM (
       SELECT template_id AS tid, bucket AS b, sum(n) AS bn FROM (${sql}) GROUP BY template_id, bucket HAVING bn > 0
     )
     GROUP BY tid
     ORDER BY hits DESC, tid
     LIMIT {limit:UInt32}`,
    { ...params, limit },
    options,
  );
  return rows.map((r) => ({ template_id: r.id, hits: Number(r.hits), buckets: r.buckets.map(([b, n]) => [Number(b), Number(n)]) }));
}
