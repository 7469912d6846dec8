/**
 * Reads of metric_samples for the Pipeline page's series. Counters and histogram buckets are
 * stored cumulative, so increases are computed here: per series (job, instance, labels) each
 * sample minus the one before it, a drop meaning a restart (the counter began again from 0).
 * Each increase belongs to the bucket of its later sample, so the buckets of a window add up to
 * the window's increase.
 *
 * A series whose first sample comes after a tick at which its instance was already recorded up
 * (a labelled series created on its first increment, or every series of a target that came up
 * again after a restart) began at 0 since then: its first value is an increase too. Without this,
 * the first failed delivery or the first request of a route would never show.
 */

import type { QueryOptions, Store } from '../../model/store.js';

/** How far before the window a series' previous sample is looked for (covers record_secs up to 10 minutes). */
export const PREVIOUS_SAMPLE_LOOKBACK_MS = 600_000;

export interface SeriesFilter {
  /** Full sample name as stored (`x_total`, `x_bucket`, a gauge). */
  metric: string;
  job?: string;
  /** Every pair must match the sample's labels. */
  labels: readonly (readonly [string, string])[];
  /** Window [startMs, endMs) on the bucket grid of `bucketSecs`. */
  startMs: number;
  endMs: number;
  bucketSecs: number;
  /** Oldest ts_ms the table's lifetime allows. */
  oldestMs: number;
}

/** How gauges of several series (replicas, label sets) in one bucket combine. */
export type GaugeAggregate = 'max' | 'sum';

export interface BucketValue {
  /** Bucket start, Unix seconds. */
  bucket: number;
  value: number;
}

export interface BucketLeIncrease extends BucketValue {
  /** The histogram bucket's `le` label as stored (`0.1`, `+Inf`). */
  le: string;
}

function whereClause(filter: SeriesFilter): string {
  return `metric = {metric:String}
      AND ts_ms >= {from_ms:Int64} AND ts_ms < {end_ms:Int64}
      ${filter.job === undefined ? '' : 'AND job = {job:String}'}
      AND arrayAll((k, v) -> labels[k] = v, {label_keys:Array(String)}, {label_values:Array(String)})`;
}

function params(filter: SeriesFilter, fromMs: number) {
  return {
    metric: filter.metric,
    from_ms: Math.max(fromMs, filter.oldestMs),
    start_ms: Math.max(filter.startMs, filter.oldestMs),
    end_ms: filter.endMs,
    bucket_ms: filter.bucketSecs * 1000,
    bucket_secs: filter.bucketSecs,
    label_keys: filter.labels.map(([key]) => key),
    label_values: filter.labels.map(([, value]) => value),
    ...(filter.job === undefined ? {} : { job: filter.job }),
  };
}

/**
 * Counter increase per bucket, summed over every matching series; with `byLe`, per bucket and
 * `le` label (a histogram's buckets). Buckets without an increase are absent.
 */
export async function readIncreases(store: Store, filter: SeriesFilter, byLe: true, options: QueryOptions): Promise<BucketLeIncrease[]>;
export async function readIncreases(store: Store, filter: SeriesFilter, byLe: false, options: QueryOptions): Promise<BucketValue[]>;
export async function readIncreases(store: Store, filter: SeriesFilter, byLe: boolean, options: QueryOptions): Promise<BucketValue[] | BucketLeIncrease[]> {
  const le = byLe ? ', le' : '';
  const rows = await store.query<{ bucket: number; le?: string; increase: number }>(
    `SELECT toUInt32(intDiv(ts_ms, {bucket_ms:Int64}) * {bucket_secs:UInt32}) AS bucket${byLe ? ", labels['le'] AS le" : ''}, sum(delta) AS increase
     FROM (
       SELECT ts_ms, labels,
         multiIf(previous_ts >= 0, if(value >= previous_value, value - previous_value, value), first_up_ms > 0 AND first_up_ms < ts_ms, value, 0.) AS delta
       FROM (
         SELECT ts_ms, job, instance, labels, value,
           lagInFrame(value, 1, 0.) OVER series AS previous_value,
           lagInFrame(ts_ms, 1, toInt64(-1)) OVER series AS previous_ts
         FROM metric_samples
         WHERE ${whereClause(filter)}
         WINDOW series AS (PARTITION BY job, instance, labels ORDER BY ts_ms ASC ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)
       ) AS samples
       LEFT JOIN (
         SELECT job, instance, min(ts_ms) AS first_up_ms
         FROM metric_samples
         WHERE metric = 'up' AND value = 1 AND ts_ms >= {from_ms:Int64} AND ts_ms < {end_ms:Int64}
         GROUP BY job, instance
       ) AS instances USING (job, instance) -- no match leaves first_up_ms 0: not known up before
       WHERE ts_ms >= {start_ms:Int64}
     )
     GROUP BY bucket${le}
     ORDER BY bucket${le}`,
    params(filter, filter.startMs - PREVIOUS_SAMPLE_LOOKBACK_MS),
    options,
  );
  return rows.map((row) => (byLe ? { bucket: Number(row.bucket), le: String(row.le), value: Number(row.increase) } : { bucket: Number(row.bucket), value: Number(row.increase) }));
}

/**
 * A gauge per bucket: each series' last sample in the bucket, then the largest or the sum of
 * those. Buckets without a sample are absent.
 */
export async function readGauge(store: Store, filter: SeriesFilter, aggregate: GaugeAggregate, options: QueryOptions): Promise<BucketValue[]> {
  // `aggregate` picks one of two fixed SQL functions; it never carries request text.
  const combine = aggregate === 'max' ? 'max' : 'sum';
  const rows = await store.query<{ bucket: number; value: number }>(
    `SELECT bucket, ${combine}(last) AS value
     FROM (
       SELECT toUInt32(intDiv(ts_ms, {bucket_ms:Int64}) * {bucket_secs:UInt32}) AS bucket, argMax(value, ts_ms) AS last
       FROM metric_samples
       WHERE ${whereClause(filter)} AND ts_ms >= {start_ms:Int64}
       GROUP BY bucket, job, instance, labels
     )
     GROUP BY bucket
     ORDER BY bucket`,
    params(filter, filter.startMs),
    options,
  );
  return rows.map((row) => ({ bucket: Number(row.bucket), value: Number(row.value) }));
}
