/**
 * Span-level reads for the Jaeger query API: a trace matches a search when one of its spans
 * matches every condition at once (service, operation, start time, the span's own duration and
 * every tag), which is how Jaeger searches; svc's own trace search works on whole-trace
 * summaries (root service and duration) instead. Operations are read from the raw spans.
 */

import type { QueryOptions, QueryParams, Store } from '../../model/store.js';
import type { SpanKind } from '../../model/signals.js';

export interface SpanSearchFilter {
  /** Inclusive, Unix ns (already clamped to the spans lifetime). */
  fromNs: bigint;
  /** Inclusive, Unix ns. */
  toNs: bigint;
  /** Absent: spans of any service. */
  service?: string;
  operation?: string;
  minDurationNs?: bigint;
  maxDurationNs?: bigint;
  /**
   * Each key must carry its value on the span, its resource or one of its events, compared as
   * text (a number or a boolean as it prints). `error` instead asks for the span's status:
   * `true` an error status, anything else an ok status.
   */
  tags: ReadonlyMap<string, string>;
  limit: number;
}

/** The text of a stored attribute value as Jaeger compares it: a string as itself, anything else as its JSON. */
const VALUE_TEXT = "if(JSONType(pair, 2) = 'String', JSONExtractString(pair, 2), JSONExtractRaw(pair, 2))";
/** Every [key, value] pair of the span, its resource and its events, as raw JSON. */
const ALL_PAIRS =
  "arrayConcat(JSONExtractArrayRaw(attrs), JSONExtractArrayRaw(resource), arrayFlatten(arrayMap(event -> JSONExtractArrayRaw(event, 'attrs'), JSONExtractArrayRaw(events))))";

function conditions(filter: SpanSearchFilter, params: QueryParams): string {
  const where = ['start_ns >= {from_ns:Int64}', 'start_ns <= {to_ns:Int64}'];
  if (filter.service !== undefined) {
    where.push('service_name = {service:String}');
    params.service = filter.service;
  }
  params.from_ns = filter.fromNs;
  params.to_ns = filter.toNs;
  if (filter.operation !== undefined) {
    where.push('name = {operation:String}');
    params.operation = filter.operation;
  }
  if (filter.minDurationNs !== undefined) {
    where.push('end_ns - start_ns >= {min_ns:Int64}');
    params.min_ns = filter.minDurationNs;
  }
  if (filter.maxDurationNs !== undefined) {
    where.push('end_ns - start_ns <= {max_ns:Int64}');
    params.max_ns = filter.maxDurationNs;
  }
  let n = 0;
  for (const [key, value] of filter.tags) {
    if (key === 'error') {
      where.push(value === 'true' ? "status = 'error'" : "status = 'ok'");
      continue;
    }
    // A cheap text test first (the key must appear in the JSON at all), then the exact pair.
    where.push(
      `position(concat(attrs, resource, events), {tag_needle_${n}:String}) > 0 AND ` +
        `arrayExists(pair -> JSONExtractString(pair, 1) = {tag_key_${n}:String} AND ${VALUE_TEXT} = {tag_value_${n}:String}, ${ALL_PAIRS})`,
    );
    params[`tag_needle_${n}`] = JSON.stringify(key);
    params[`tag_key_${n}`] = key;
    params[`tag_value_${n}`] = value;
    n += 1;
  }
  return where.join(' AND ');
}

/** Ids of the traces with a matching span, the trace of the latest matching span first, at most `limit`. */
export async function findTraceIdsBySpan(store: Store, filter: SpanSearchFilter, options: QueryOptions): Promise<string[]> {
  const params: QueryParams = { limit: filter.limit };
  const rows = await store.query<{ trace_id: string }>(
    `SELECT trace_id
     FROM spans
     WHERE ${conditions(filter, params)}
     GROUP BY trace_id
     ORDER BY max(start_ns) DESC, trace_id
     LIMIT {limit:UInt32}`,
    params,
    options,
  );
  return rows.map((row) => row.trace_id);
}

export interface OperationRow {
  name: string;
  kind: SpanKind;
}

/** Contract-style bound on the operations listed for one service. */
export const MAX_OPERATIONS = 10_000;

/** The distinct (span name, kind) pairs of one service's spans since `fromNs`, by name then kind. */
export async function readOperations(store: Store, service: string, fromNs: bigint, options: QueryOptions): Promise<OperationRow[]> {
  return store.query<OperationRow>(
    `SELECT name, kind
     FROM spans
     WHERE service_name = {service:String} AND start_ns >= {from_ns:Int64}
     GROUP BY name, kind
     ORDER BY name, kind
     LIMIT {limit:UInt32}`,
    { service, from_ns: fromNs, limit: MAX_OPERATIONS },
    options,
  );
}
