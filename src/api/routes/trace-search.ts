/** GET /api/v1/traces/search. */

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { oldestAllowedNs } from '../../store/lifetimes.js';
import { searchTraces } from '../../store/reads/trace-search.js';
import { HOUR_SECS, nsRange, queryWindow, readOptions, windowParams, type DataRouteDeps } from '../data-route.js';
import { declareRoute } from '../declared-route.js';
import { boundedInt, flag, optionalText, wholeMs } from '../query-params.js';
import type { RequestContext } from '../request-context.js';
import { traceSearchRow } from '../schemas/stories.js';

export const MAX_SEARCH_LIMIT = 500;
export const DEFAULT_SEARCH_LIMIT = 100;

const query = z
  .object({
    ...windowParams(HOUR_SECS),
    min_ms: wholeMs('min_ms'),
    max_ms: wholeMs('max_ms'),
    service: optionalText('service'),
    touched: flag('touched', false),
    endpoint: optionalText('endpoint'),
    errors: flag('errors', false),
    limit: boundedInt('limit', 1, MAX_SEARCH_LIMIT, DEFAULT_SEARCH_LIMIT),
  })
  // Runs after the fields' own checks (their refusals come first); skips bounds that did not parse.
  .refine((q) => !(typeof q.min_ms === 'number' && typeof q.max_ms === 'number' && q.min_ms > q.max_ms), 'min_ms must not exceed max_ms');

export function registerTraceSearchRoute(app: FastifyInstance, deps: DataRouteDeps, context: RequestContext): void {
  const route = { method: 'GET', url: '/api/v1/traces/search', query, response: z.array(traceSearchRow) } as const;
  declareRoute(app, route, async ({ query: q, request }) => {
    const window = queryWindow(q, deps.nowMs());
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
