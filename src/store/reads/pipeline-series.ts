/**
 * Reads of metric_samples for the Pipeline page's series. Counters and histogram buckets are
 * stored cumulative, so increases are computed here, per series (job, instance, labels): each
 * sample minus the one before it, a drop meaning a restart (the counter began again from 0, so
 * the new value is the increase). Each increase belongs to the bucket of its later sample, so the
 * buckets of a window add up to the window's increase.
 *
 * A window function over every sample is too slow for 7 days (8M samples took over 15 s), so the
 * samples are first grouped per series and bucket in one pass (deltaSumTimestamp: the rises
 * inside the bucket; first, last and lowest values), and only those rows are ordered to add the
 * step from one bucket's last value to the next one's first. A drop inside a bucket shows as rises
 * exceeding last - first; the value the counter restarted from is then taken as the lowest value
 * of the bucket (exact for one restart per bucket to a value below the bucket's first, which is
 * how a restarted process's counters look).
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
      ${filter.labels.map((_, i) => `AND labels[{label_key_${i}:String}] = {label_value_${i}:String}`).join(' ')}`;
}

function params(filter: SeriesFilter, fromMs: number) {
  return {
    metric: filter.metric,
    from_ms: Math.max(fromMs, filter.oldestMs),
    start_ms: Math.max(filter.startMs, filter.oldestMs),
    end_ms: filter.endMs,
    bucket_ms: filter.bucketSecs * 1000,
    bucket_secs: filter.bucketSecs,
    // One parameter pair per label (at most 8): a plain map lookup per row, cheaper than a lambda.
    ...Object.fromEntries(
      filter.labels.flatMap(([key, value], i) => [
        [`label_key_${i}`, key],
        [`label_value_${i}`, value],
      ]),
    ),
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
  // Segment -1 holds the samples before the window: they only give each series its previous value.
  const rows = await store.query<{ bucket: number; le?: string; increase: number }>(
    `SELECT toUInt32(segment * {bucket_secs:UInt32}) AS bucket${le}, sum(inside + boundary) AS increase
     FROM (
       SELECT segment, le, inside,
         multiIf(previous_segment > -2, if(first_value >= previous_last, first_value - previous_last, first_value),
                 first_up_ms > 0 AND first_up_ms < first_ts, first_value,
                 0.) AS boundary
       FROM (
         SELECT job, instance, le, segment, inside, first_value, first_ts,
           lagInFrame(last_value, 1, 0.) OVER series AS previous_last,
           lagInFrame(segment, 1, toInt64(-2)) OVER series AS previous_segment
         FROM (
           SELECT job, instance, sipHash64(labels) AS series_id, any(labels['le']) AS le,
             if(ts_ms < {start_ms:Int64}, toInt64(-1), intDiv(ts_ms, {bucket_ms:Int64})) AS segment,
             deltaSumTimestamp(value, ts_ms) AS rises,
             argMin(value, ts_ms) AS first_value,
             min(ts_ms) AS first_ts,
             argMax(value, ts_ms) AS last_value,
             min(value) AS lowest,
             if(rises - (last_value - first_value) > 1e-9 * greatest(abs(first_value), abs(last_value), 1.), rises + lowest, rises) AS inside
           FROM metric_samples
           WHERE ${whereClause(filter)}
           GROUP BY job, instance, series_id, segment
         )
         WINDOW series AS (PARTITION BY job, instance, series_id ORDER BY segment ASC ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)
       ) AS segments
       LEFT JOIN (
         SELECT job, instance, min(ts_ms) AS first_up_ms
         FROM metric_samples
         WHERE metric = 'up' AND value = 1 AND ts_ms >= {from_ms:Int64} AND ts_ms < {end_ms:Int64}
         GROUP BY job, instance
       ) AS instances USING (job, instance) -- no match leaves first_up_ms 0: not known up before
       WHERE segment >= 0
     )
     GROUP BY bucket${le}
     ORDER BY bucket${le}`,
    params(filter, filter.startMs - PREVIOUS_SAMPLE_LOOKBACK_MS),
    options,
  );
  return rows.map((row) =>
    byLe ? { bucket: Number(row.bucket), le: String(row.le), value: Number(row.increase) } : { bucket: Number(row.bucket), value: Number(row.increase) },
  );
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
       GROUP BY bucket, job, instance, sipHash64(labels)
     )
     GROUP BY bucket
     ORDER BY bucket`,
    params(filter, filter.startMs),
    options,
  );
  return rows.map((row) => ({ bucket: Number(row.bucket), value: Number(row.value) }));
}
