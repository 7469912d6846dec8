/** GET /api/v1/services/{name}: RED series over the service's server and consumer spans. */

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { readServiceRed, serviceHasSpans } from '../../store/reads/service-spans.js';
import { HOUR_SECS, nsRange, readOptions, windowQuery, type DataRouteDeps } from '../data-route.js';
import { declareRoute } from '../declared-route.js';
import { API_ROUTES } from '../schemas/routes.js';
import { notFound } from '../errors.js';
import { text } from '../query-params.js';
import type { RequestContext } from '../request-context.js';
import { bucketCoveredSecs, bucketGrid } from '../window.js';

export function registerServiceRedRoute(app: FastifyInstance, deps: DataRouteDeps, context: RequestContext): void {
  // A wildcard, not `:name`: the router refuses parametric segments over 100 characters with its
  // own 414, and the contract allows service names up to 200 (more bytes once percent-encoded).
  const route = {
    method: 'GET',
    ...API_ROUTES['services/:service'],
    params: z.object({ '*': text('service name') }),
    query: windowQuery(HOUR_SECS, deps.nowMs),
  } as const;
  declareRoute(app, route, async ({ params, query, request }) => {
    const service = params['*'];
    const { window } = query;
    const options = readOptions(context, request);
    const range = nsRange(window, 'spans');
    const rows = await readServiceRed(deps.store, service, { ...range, bucketSecs: window.bucketSecs }, options);
    // A service with only client or internal spans still exists: its series is all zeros.
    if (rows.length === 0 && !(await serviceHasSpans(deps.store, service, range, options))) throw notFound();
    const byBucket = new Map(rows.map((row) => [row.bucket, row]));
    const buckets = bucketGrid(window).map((bucket) => {
      const row = byBucket.get(bucket);
      const secs = bucketCoveredSecs(window, bucket);
      if (row === undefined) return { bucket, rate: 0, error_ratio: 0, p50_ns: 0, p95_ns: 0, p99_ns: 0 };
      return {
        bucket,
        rate: secs > 0 ? row.calls / secs : 0,
        error_ratio: row.errors / row.calls,
        p50_ns: row.p50Ns,
        p95_ns: row.p95Ns,
        p99_ns: row.p99Ns,
      };
    });
    return {
      service,
      bucket_secs: window.bucketSecs,
      calls: rows.reduce((sum, row) => sum + row.calls, 0),
      errors: rows.reduce((sum, row) => sum + row.errors, 0),
      buckets,
    };
  });
}
