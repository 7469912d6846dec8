/** GET /api/v1/traces/search. */

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { oldestAllowedNs } from '../../store/lifetimes.js';
import { searchTraces } from '../../store/reads/trace-search.js';
import { HOUR_SECS, nsRange, readOptions, windowQuery, type DataRouteDeps } from '../data-route.js';
import { declareRoute } from '../declared-route.js';
import { API_ROUTES } from '../schemas/routes.js';
import { boundedInt, flag, inOrder, optionalText, wholeMs } from '../query-params.js';
import type { RequestContext } from '../request-context.js';

export const MAX_SEARCH_LIMIT = 500;
export const DEFAULT_SEARCH_LIMIT = 100;

/** The duration bounds, checked together before the other filters. */
const durationBounds = z
  .object({ min_ms: wholeMs('min_ms'), max_ms: wholeMs('max_ms') })
  // Runs after the bounds' own checks (their refusals come first); skips bounds that did not parse.
  .refine((q) => !(typeof q.min_ms === 'number' && typeof q.max_ms === 'number' && q.min_ms > q.max_ms), 'min_ms must not exceed max_ms');

const filters = z.object({
  service: optionalText('service'),
  touched: flag('touched', false),
  endpoint: optionalText('endpoint'),
  errors: flag('errors', false),
  limit: boundedInt('limit', 1, MAX_SEARCH_LIMIT, DEFAULT_SEARCH_LIMIT),
});

export function registerTraceSearchRoute(app: FastifyInstance, deps: DataRouteDeps, context: RequestContext): void {
  const route = {
    method: 'GET',
    ...API_ROUTES['traces/search'],
    query: inOrder(windowQuery(HOUR_SECS, deps.nowMs), durationBounds, filters),
  } as const;
  declareRoute(app, route, async ({ query: q, request }) => {
    const { window } = q;
    const filter = {
      // A row list: without `until` it reaches 60 s past now, for clocks slightly ahead.
      ...nsRange(window, 'trace_summaries', window.rowsEndMs),
      oldestNs: oldestAllowedNs('trace_summaries', window.nowMs),
      service: q.service,
      touched: q.touched,
      endpoint: q.endpoint,
      minMs: q.min_ms,
      maxMs: q.max_ms,
      errorsOnly: q.errors,
      limit: q.limit,
    };
    return searchTraces(deps.store, filter, readOptions(context, request));
  });
}
