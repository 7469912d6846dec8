/** GET /api/v1/overview: story and span figures of the window, alerts and data lag at its end. */

import type { FastifyInstance } from 'fastify';
import { oldestAllowedMs, oldestAllowedNs } from '../../store/lifetimes.js';
import { countActiveAlerts, readDataLagSecs } from '../../store/reads/overview.js';
import { readSpanCounts } from '../../store/reads/service-spans.js';
import { readStoryCounts } from '../../store/reads/stories.js';
import { HOUR_SECS, nsRange, readOptions, windowQuery, type DataRouteDeps } from '../data-route.js';
import { declareRoute } from '../declared-route.js';
import { API_ROUTES } from '../schemas/routes.js';
import type { RequestContext } from '../request-context.js';
import { countSeries, rateSeries } from '../series.js';

export function registerOverviewRoute(app: FastifyInstance, deps: DataRouteDeps, context: RequestContext): void {
  const route = { method: 'GET', ...API_ROUTES['overview'], query: windowQuery(HOUR_SECS, deps.nowMs) } as const;
  declareRoute(app, route, async ({ query, request }) => {
    const { window } = query;
    const { nowMs } = window;
    const options = readOptions(context, request);
    const [storyCounts, spanCounts, activeAlerts, dataLagSecs] = await Promise.all([
      readStoryCounts(deps.store, nsRange(window, 'stories'), window.bucketSecs, options),
      readSpanCounts(deps.store, { ...nsRange(window, 'spans'), bucketSecs: window.bucketSecs }, options),
      countActiveAlerts(deps.store, window.endMs, oldestAllowedNs('log_alerts', nowMs), options),
      readDataLagSecs(deps.store, window.endMs, oldestAllowedMs('metric_samples', nowMs), options),
    ]);
    const stories = { error: new Map<number, number>(), slow: new Map<number, number>() };
    for (const row of storyCounts) stories[row.kind].set(row.bucket, row.stories);
    const spans = new Map(spanCounts.map((row) => [row.bucket, row.spans]));
    const totalSpans = spanCounts.reduce((sum, row) => sum + row.spans, 0);
    const sum = (counts: Map<number, number>) => [...counts.values()].reduce((a, b) => a + b, 0);
    return {
      bucket_secs: window.bucketSecs,
      error_stories: sum(stories.error),
      slow_stories: sum(stories.slow),
      active_alerts: activeAlerts,
      spans_per_sec: totalSpans / window.windowSecs,
      data_lag_secs: dataLagSecs,
      stories: { bucket_secs: window.bucketSecs, error: countSeries(window, stories.error), slow: countSeries(window, stories.slow) },
      spans: rateSeries(window, spans),
    };
  });
}
