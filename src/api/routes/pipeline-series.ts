/**
 * GET /api/v1/pipeline/series: one metric of the recorded component metrics on the window's
 * bucket grid. Replicas (instances) and matching label sets combine as the contract says: rates
 * and quantiles sum them; gauges named `*_data_lag_seconds` or `*_templates`, and `up`, take the
 * largest; other gauges are summed.
 */

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { oldestAllowedMs } from '../../store/lifetimes.js';
import { readGauge, readIncreases, type GaugeAggregate, type SeriesFilter } from '../../store/reads/pipeline-series.js';
import { HOUR_SECS, readOptions, windowQuery, type DataRouteDeps } from '../data-route.js';
import { inOrder } from '../query-params.js';
import { declareRoute } from '../declared-route.js';
import { API_ROUTES } from '../schemas/routes.js';
import type { RequestContext } from '../request-context.js';
import { bucketCoveredSecs, bucketGrid, type TimeWindow } from '../window.js';
import { sampleNameOf, seriesParams } from './pipeline-params.js';
import { histogramQuantile, parseLe } from './pipeline-quantile.js';

type Point = [number, number | null];

/** Gauges where adding replicas means nothing (a lag, a per-replica template count, up). */
export function gaugeAggregate(metric: string): GaugeAggregate {
  return metric === 'up' || metric.endsWith('_data_lag_seconds') || metric.endsWith('_templates') ? 'max' : 'sum';
}

export function registerPipelineSeriesRoute(app: FastifyInstance, deps: DataRouteDeps, context: RequestContext): void {
  const route = {
    method: 'GET',
    ...API_ROUTES['pipeline/series'],
    query: inOrder(z.object(seriesParams), windowQuery(HOUR_SECS, deps.nowMs)),
  } as const;
  declareRoute(app, route, async ({ query: series, request }) => {
    const { window } = series;
    const { nowMs } = window;
    const options = readOptions(context, request);
    const sampleName = sampleNameOf(series.metric, series.kind);
    const filter: SeriesFilter = {
      metric: sampleName,
      job: series.job,
      labels: series.labels,
      startMs: window.startMs,
      endMs: window.endMs,
      bucketSecs: window.bucketSecs,
      oldestMs: oldestAllowedMs('metric_samples', nowMs),
    };
    let points: Point[];
    if (series.kind === 'rate') {
      const increases = new Map((await readIncreases(deps.store, filter, false, options)).map((row) => [row.bucket, row.value]));
      points = onGrid(window, (bucket) => {
        const secs = bucketCoveredSecs(window, bucket);
        return secs > 0 ? (increases.get(bucket) ?? 0) / secs : 0;
      });
    } else if (series.kind === 'gauge') {
      const values = new Map((await readGauge(deps.store, filter, gaugeAggregate(sampleName), options)).map((row) => [row.bucket, row.value]));
      // No sample in a bucket is no reading, not a reading of 0.
      points = onGrid(window, (bucket) => values.get(bucket) ?? null);
    } else {
      const q = series.kind === 'q50' ? 0.5 : 0.99;
      const perBucket = new Map<number, Map<number, number>>();
      for (const row of await readIncreases(deps.store, filter, true, options)) {
        const le = parseLe(row.le);
        const counts = perBucket.get(row.bucket) ?? new Map<number, number>();
        // `0.1` and `0.10` from different replicas are the same bound.
        counts.set(le, (counts.get(le) ?? 0) + row.value);
        perBucket.set(row.bucket, counts);
      }
      points = onGrid(window, (bucket) => {
        const counts = perBucket.get(bucket);
        return counts === undefined
          ? null
          : histogramQuantile(
              q,
              [...counts].map(([le, count]) => ({ le, count })),
            );
      });
    }
    return { metric: series.metric, kind: series.kind, bucket_secs: window.bucketSecs, points };
  });
}

function onGrid(window: TimeWindow, valueAt: (bucketStartSecs: number) => number | null): Point[] {
  return bucketGrid(window).map((bucket) => [bucket * 1000, valueAt(bucket)]);
}
