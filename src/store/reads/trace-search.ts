/** Trace search over trace_summaries: newest first, each trace once, in its version with most spans. */

import type { QueryOptions, QueryParams, Store } from '../../model/store.js';

export interface TraceSearchFilter {
  /** Inclusive, Unix ns (clamped to the trace_summaries lifetime by the caller). */
  fromNs: bigint;
  /** Exclusive, Unix ns. */
  toNs: bigint;
  /** Lifetime bound for the other versions of a candidate trace. */
  oldestNs: bigint;
  service?: string;
  /** With a service: match any service with a span in the trace instead of the endpoint service. */
  touched: boolean;
  endpoint?: string;
  minMs?: number;
  maxMs?: number;
  errorsOnly: boolean;
  limit: number;
}

/** The contract's Trace search row. */
export interface TraceSearchRow {
  trace_id: string;
  ts_ns: bigint;
  endpoint_service: string;
  endpoint_name: string;
  duration_ns: bigint;
  is_error: boolean;
  span_count: number;
  story_id: string | null;
  story_kind: string | null;
}

interface StoredRow {
  trace_id: string;
  ts_ns: string;
  endpoint_service: string;
  endpoint_name: string;
  duration_ns: string;
  is_error: boolean;
  span_count: number;
  story_kind: string;
}

/** Candidates beyond `limit` taken from the newest rows, so that a trace whose biggest piece fails the filters rarely shortens the page. */
const EXTRA_CANDIDATES = 100;

function filterSql(filter: TraceSearchFilter, params: QueryParams): string {
  const conditions = ['ts_ns >= {from_ns:Int64}', 'ts_ns < {to_ns:Int64}'];
  params.from_ns = filter.fromNs;
  params.to_ns = filter.toNs;
  if (filter.service !== undefined) {
    conditions.push(filter.touched ? 'has(services, {service:String})' : 'endpoint_service = {service:String}');
    params.service = filter.service;
  }
  if (filter.endpoint !== undefined) {
    conditions.push('endpoint_name = {endpoint:String}');
    params.endpoint = filter.endpoint;
  }
  // Whole-millisecond bounds on the root duration: max_ms admits durations below max_ms + 1 ms.
  if (filter.minMs !== undefined) {
    conditions.push('duration_ns >= {min_ns:Int64}');
    params.min_ns = BigInt(filter.minMs) * 1_000_000n;
  }
  if (filter.maxMs !== undefined) {
    conditions.push('duration_ns < {max_ns:Int64}');
    params.max_ns = (BigInt(filter.maxMs) + 1n) * 1_000_000n;
  }
  if (filter.errorsOnly) conditions.push('is_error');
  return conditions.join(' AND ');
}

/**
 * Two steps in one statement: the newest matching rows by the (ts_ns, trace_id) sort key give
 * candidate traces; every version of those (bloom-filtered by trace id) is reduced to the one
 * with most spans, which must itself match. A trace closed in pieces thus shows once, whole.
 */
export async function searchTraces(store: Store, filter: TraceSearchFilter, options: QueryOptions): Promise<TraceSearchRow[]> {
  const params: QueryParams = { oldest_ns: filter.oldestNs, limit: filter.limit, candidates: filter.limit + EXTRA_CANDIDATES };
  const where = filterSql(filter, params);
  const rows = await store.query<StoredRow>(
    `SELECT trace_id, ts_ns, endpoint_service, endpoint_name, duration_ns, is_error, span_count, story_kind
     FROM (
       SELECT trace_id, ts_ns, endpoint_service, endpoint_name, duration_ns, is_error, span_count, services, story_kind
       FROM trace_summaries
       WHERE trace_id IN (
           SELECT trace_id FROM trace_summaries WHERE ${where} ORDER BY ts_ns DESC LIMIT {candidates:UInt32}
         )
         AND ts_ns >= {oldest_ns:Int64}
       ORDER BY span_count DESC, ts_ns DESC
       LIMIT 1 BY trace_id
     )
     WHERE ${where}
     ORDER BY ts_ns DESC, trace_id DESC
     LIMIT {limit:UInt32}`,
    params,
    options,
  );
  return rows.map((row) => ({
    trace_id: row.trace_id,
    ts_ns: BigInt(row.ts_ns),
    endpoint_service: row.endpoint_service,
    endpoint_name: row.endpoint_name,
    duration_ns: BigInt(row.duration_ns),
    is_error: Boolean(row.is_error),
    span_count: Number(row.span_count),
    story_id: row.story_kind === '' ? null : row.trace_id,
    story_kind: row.story_kind === '' ? null : row.story_kind,
  }));
}
