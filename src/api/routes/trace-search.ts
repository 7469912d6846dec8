/** GET /api/v1/traces/search. */

import type { FastifyInstance } from 'fastify';
import { oldestAllowedNs } from '../../store/lifetimes.js';
import { searchTraces } from '../../store/reads/trace-search.js';
import { HOUR_SECS, nsRange, readOptions, requestWindow, type DataRouteDeps } from '../data-route.js';
import { badRequest } from '../errors.js';
import { boundedInt, flag, optionalText, wholeMs, type Query } from '../query-params.js';
import type { RequestContext } from '../request-context.js';

export const MAX_SEARCH_LIMIT = 500;
export const DEFAULT_SEARCH_LIMIT = 100;

export function registerTraceSearchRoute(app: FastifyInstance, deps: DataRouteDeps, context: RequestContext): void {
  app.get('/api/v1/traces/search', async (request) => {
    const window = requestWindow(request, HOUR_SECS, deps.nowMs());
    const query = request.query as Query;
    const minMs = wholeMs(query, 'min_ms');
    const maxMs = wholeMs(query, 'max_ms');
    if (minMs !== undefined && maxMs !== undefined && minMs > maxMs) throw badRequest('min_ms must not exceed max_ms');
    const filter = {
      // A row list: without `until` it reaches 60 s past now, for clocks slightly ahead.
      ...nsRange(window, 'trace_summaries', window.rowsEndMs),
      oldestNs: oldestAllowedNs('trace_summaries', window.nowMs),
      service: optionalText(query, 'service'),
      touched: flag(query, 'touched', false),
      endpoint: optionalText(query, 'endpoint'),
      minMs,
      maxMs,
      errorsOnly: flag(query, 'errors', false),
      limit: boundedInt(query, 'limit', 1, MAX_SEARCH_LIMIT, DEFAULT_SEARCH_LIMIT),
    };
    return searchTraces(deps.store, filter, readOptions(context, request));
  });
}
