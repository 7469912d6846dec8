/**
 * GET /api/v1/logs/search and /api/v1/logs/series: raw logs over the contract's window parameters,
 * filtered by service, minimum severity, words of the body, template and trace.
 */

import type { FastifyInstance } from 'fastify';
import { oldestAllowedNs } from '../../store/lifetimes.js';
import { countLogs, searchLogs, SEVERITY_LEVELS, type LogSearchFilter, type SeverityLevel } from '../../store/reads/log-search.js';
import { HOUR_SECS, nsRange, readOptions, requestWindow, type DataRouteDeps } from '../data-route.js';
import { boundedInt, optionalText, type Query } from '../query-params.js';
import type { RequestContext } from '../request-context.js';
import { countSeries } from '../series.js';
import type { TimeWindow } from '../window.js';
import { encodeCursor, minSeverity, pageCursor, searchWords, templateIdFilter, traceIdFilter } from './log-search-params.js';

export const MAX_LOG_LIMIT = 500;
export const DEFAULT_LOG_LIMIT = 100;

/** The filter of both routes; `endMs` is the window end (series) or the row-list end (search). */
function logFilter(query: Query, window: TimeWindow, endMs: number): LogSearchFilter {
  return {
    ...nsRange(window, 'logs', endMs),
    service: optionalText(query, 'service'),
    minSeverity: minSeverity(query),
    words: searchWords(query),
    templateId: templateIdFilter(query),
    traceId: traceIdFilter(query),
  };
}

export function registerLogSearchRoutes(app: FastifyInstance, deps: DataRouteDeps, context: RequestContext): void {
  app.get('/api/v1/logs/search', async (request) => {
    const window = requestWindow(request, HOUR_SECS, deps.nowMs());
    const query = request.query as Query;
    // A row list: without `until` it reaches 60 s past now, for clocks slightly ahead.
    const filter = logFilter(query, window, window.rowsEndMs);
    const limit = boundedInt(query, 'limit', 1, MAX_LOG_LIMIT, DEFAULT_LOG_LIMIT);
    const cursor = pageCursor(query);
    // Later pages keep the first page's window start, so a window that moves with the clock
    // between pages drops no row of the listing; the lifetime bound still applies.
    if (cursor !== undefined) {
      const oldestNs = oldestAllowedNs('logs', window.nowMs);
      filter.fromNs = cursor.fromNs > oldestNs ? cursor.fromNs : oldestNs;
    }
    const { rows, more } = await searchLogs(deps.store, filter, cursor, limit, readOptions(context, request));
    const last = rows[rows.length - 1];
    return {
      logs: rows,
      next_cursor: more && last !== undefined ? encodeCursor(last.ts_ns, last.log_id, filter.fromNs) : null,
    };
  });

  app.get('/api/v1/logs/series', async (request) => {
    const window = requestWindow(request, HOUR_SECS, deps.nowMs());
    const query = request.query as Query;
    const filter = logFilter(query, window, window.endMs);
    const counts = await countLogs(deps.store, filter, window.bucketSecs, readOptions(context, request));
    const byLevel = new Map<SeverityLevel, Map<number, number>>(SEVERITY_LEVELS.map((level) => [level, new Map()]));
    let total = 0;
    for (const c of counts) {
      byLevel.get(c.level)?.set(c.bucket, c.n);
      total += c.n;
    }
    const out: Record<string, unknown> = { bucket_secs: window.bucketSecs, total };
    for (const level of SEVERITY_LEVELS) out[level] = countSeries(window, byLevel.get(level) ?? new Map());
    return out;
  });
}
