/**
 * The newest version of every story in a time range, as a subquery the story reads share.
 * A replayed trace writes a newer row (written_at_ms) that wins, and merges are eventual, so
 * each read dedupes by story_id itself. Only narrow columns are read here: the story JSON and
 * the summary stay untouched, which keeps 7-day group reads fast.
 */

import type { QueryParams } from '../../model/store.js';

export interface StoryFilter {
  /** Inclusive, Unix ns (already clamped to the stories lifetime by the caller). */
  fromNs: bigint;
  /** Exclusive, Unix ns. */
  toNs: bigint;
  kind?: 'error' | 'slow';
  /** Root-cause service, exact. */
  rcService?: string;
  /** Decimal u64. */
  fingerprint?: string;
}

/**
 * SQL yielding one row per story in the range: story_id, fp (fingerprint), k (kind), ts (ts_ns),
 * dur (duration_ns). Aliases differ from the column names on purpose: ClickHouse resolves
 * aliases before columns, and `ts_ns` in WHERE must mean the stored column.
 */
export function latestStoriesSql(filter: StoryFilter): { sql: string; params: QueryParams } {
  const params: QueryParams = { from_ns: filter.fromNs, to_ns: filter.toNs };
  // The fingerprint is the table's first sort key, so filtering on it before the dedupe lets
  // the engine read only that group's granules.
  let inner = '';
  if (filter.fingerprint !== undefined) {
    inner = ' AND fingerprint = {fingerprint:UInt64}';
    params.fingerprint = filter.fingerprint;
  }
  // Kind and root-cause service are judged on the winning version, after the dedupe.
  const outer: string[] = [];
  if (filter.kind !== undefined) {
    outer.push('k = {kind:String}');
    params.kind = filter.kind;
  }
  if (filter.rcService !== undefined) {
    outer.push('rc = {rc_service:String}');
    params.rc_service = filter.rcService;
  }
  const sql = `SELECT story_id, fp, k, ts, dur FROM (
      SELECT story_id,
        argMax(fingerprint, written_at_ms) AS fp,
        argMax(kind, written_at_ms) AS k,
        argMax(ts_ns, written_at_ms) AS ts,
        argMax(duration_ns, written_at_ms) AS dur,
        argMax(rc_service, written_at_ms) AS rc
      FROM stories
      WHERE ts_ns >= {from_ns:Int64} AND ts_ns < {to_ns:Int64}${inner}
      GROUP BY story_id
    )${outer.length > 0 ? ` WHERE ${outer.join(' AND ')}` : ''}`;
  return { sql, params };
}
