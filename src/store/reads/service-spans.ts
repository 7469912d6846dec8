/**
 * RED figures over server and consumer spans (the spans that answer a request or a message),
 * read from raw spans so that window edges are exact to the nanosecond. Replayed copies not yet
 * merged away count twice; they are rare and only nudge a rate.
 */

import type { QueryOptions, Store } from '../../model/store.js';

/** Spans that serve a call: the contract's "server and consumer spans". */
const SERVING_KINDS = "kind IN ('server', 'consumer')";

export interface RedBucketRow {
  /** Bucket start, Unix seconds on the epoch grid. */
  bucket: number;
  calls: number;
  errors: number;
  p50Ns: number;
  p95Ns: number;
  p99Ns: number;
}

/** One service's calls, errors and duration quantiles per grid bucket in [fromNs, toNs), non-empty buckets only. */
export async function readServiceRed(
  store: Store,
  service: string,
  range: { fromNs: bigint; toNs: bigint; bucketSecs: number },
  options: QueryOptions,
): Promise<RedBucketRow[]> {
  const rows = await store.query<{ bucket: string; calls: string; errors: string; q: number[] }>(
    `SELECT intDiv(start_ns, {bucket_ns:Int64}) * {bucket_secs:Int64} AS bucket, count() AS calls,
       countIf(status = 'error') AS errors, quantiles(0.5, 0.95, 0.99)(end_ns - start_ns) AS q
     FROM spans
     WHERE service_name = {service:String} AND ${SERVING_KINDS}
       AND start_ns >= {from_ns:Int64} AND start_ns < {to_ns:Int64}
     GROUP BY bucket
     ORDER BY bucket`,
    { service, from_ns: range.fromNs, to_ns: range.toNs, bucket_ns: BigInt(range.bucketSecs) * 1_000_000_000n, bucket_secs: range.bucketSecs },
    options,
  );
  return rows.map((row) => ({
    bucket: Number(row.bucket),
    calls: Number(row.calls),
    errors: Number(row.errors),
    p50Ns: Math.round(row.q[0]),
    p95Ns: Math.round(row.q[1]),
    p99Ns: Math.round(row.q[2]),
  }));
}

export interface ServiceTotals {
  service: string;
  calls: number;
  errors: number;
  p99Ns: number;
}

/** Every service's calls, errors and p99 duration over its server and consumer spans in [fromNs, toNs). */
export async function readServiceTotals(store: Store, range: { fromNs: bigint; toNs: bigint }, options: QueryOptions): Promise<ServiceTotals[]> {
  const rows = await store.query<{ service: string; calls: string; errors: string; p99: number }>(
    `SELECT service_name AS service, count() AS calls, countIf(status = 'error') AS errors, quantile(0.99)(end_ns - start_ns) AS p99
     FROM spans
     WHERE ${SERVING_KINDS} AND start_ns >= {from_ns:Int64} AND start_ns < {to_ns:Int64}
     GROUP BY service
     ORDER BY service`,
    { from_ns: range.fromNs, to_ns: range.toNs },
    options,
  );
  return rows.map((row) => ({ service: row.service, calls: Number(row.calls), errors: Number(row.errors), p99Ns: Math.round(row.p99) }));
}

/** Spans of every kind per grid bucket in [fromNs, toNs) (the overview's ingest series), non-empty buckets only. */
export async function readSpanCounts(
  store: Store,
  range: { fromNs: bigint; toNs: bigint; bucketSecs: number },
  options: QueryOptions,
): Promise<{ bucket: number; spans: number }[]> {
  const rows = await store.query<{ bucket: string; n: string }>(
    `SELECT intDiv(start_ns, {bucket_ns:Int64}) * {bucket_secs:Int64} AS bucket, count() AS n
     FROM spans
     WHERE start_ns >= {from_ns:Int64} AND start_ns < {to_ns:Int64}
     GROUP BY bucket`,
    { from_ns: range.fromNs, to_ns: range.toNs, bucket_ns: BigInt(range.bucketSecs) * 1_000_000_000n, bucket_secs: range.bucketSecs },
    options,
  );
  return rows.map((row) => ({ bucket: Number(row.bucket), spans: Number(row.n) }));
}

/** Whether the service has a span of any kind in [fromNs, toNs). */
export async function serviceHasSpans(store: Store, service: string, range: { fromNs: bigint; toNs: bigint }, options: QueryOptions): Promise<boolean> {
  const rows = await store.query<{ one: number }>(
    `SELECT 1 AS one FROM spans
     WHERE service_name = {service:String} AND start_ns >= {from_ns:Int64} AND start_ns < {to_ns:Int64}
     LIMIT 1`,
    { service, from_ns: range.fromNs, to_ns: range.toNs },
    options,
  );
  return rows.length > 0;
}
