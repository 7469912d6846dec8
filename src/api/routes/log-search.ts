/**
 * GET /api/v1/logs/search and /api/v1/logs/series: raw logs over the contract's window parameters,
 * filtered by service, minimum severity, words of the body, template and trace.
 */

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { oldestAllowedNs } from '../../store/lifetimes.js';
import { countLogs, searchLogs, SEVERITY_LEVELS, type LogSearchFilter, type SeverityLevel } from '../../store/reads/log-search.js';
import { HOUR_SECS, nsRange, readOptions, windowQuery, type DataRouteDeps } from '../data-route.js';
import { declareRoute } from '../declared-route.js';
import { API_ROUTES } from '../schemas/routes.js';
import { boundedInt, inOrder, param, parsedBy } from '../query-params.js';
import type { RequestContext } from '../request-context.js';
import { countSeries } from '../series.js';
import type { TimeWindow } from '../window.js';
import { encodeCursor, logFilterParams, pageCursor } from './log-search-params.js';

export const MAX_LOG_LIMIT = 500;
export const DEFAULT_LOG_LIMIT = 100;

const filterQuery = z.object(logFilterParams);
type FilterQuery = z.output<typeof filterQuery>;
const pageQuery = z.object({ limit: boundedInt('limit', 1, MAX_LOG_LIMIT, DEFAULT_LOG_LIMIT), cursor: param('cursor', parsedBy(pageCursor)) });

/** The filter of both routes; `endMs` is the window end (series) or the row-list end (search). */
function logFilter(query: FilterQuery, window: TimeWindow, endMs: number): LogSearchFilter {
  return {
    ...nsRange(window, 'logs', endMs),
    service: query.service,
    minSeverity: query.severity,
    words: query.q,
    templateId: query.template_id,
    traceId: query.trace_id,
  };
}

export function registerLogSearchRoutes(app: FastifyInstance, deps: DataRouteDeps, context: RequestContext): void {
  const searchRoute = {
    method: 'GET',
    ...API_ROUTES['logs/search'],
    query: inOrder(windowQuery(HOUR_SECS, deps.nowMs), filterQuery, pageQuery),
  } as const;
  declareRoute(app, searchRoute, async ({ query, request }) => {
    const { window } = query;
    // A row list: without `until` it reaches 60 s past now, for clocks slightly ahead.
    const filter = logFilter(query, window, window.rowsEndMs);
    const { cursor, limit } = query;
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

  const seriesRoute = { method: 'GET', ...API_ROUTES['logs/series'], query: inOrder(windowQuery(HOUR_SECS, deps.nowMs), filterQuery) } as const;
  declareRoute(app, seriesRoute, async ({ query, request }) => {
    const { window } = query;
    const filter = logFilter(query, window, window.endMs);
    const counts = await countLogs(deps.store, filter, window.bucketSecs, readOptions(context, request));
    const byLevel = new Map<SeverityLevel, Map<number, number>>(SEVERITY_LEVELS.map((level) => [level, new Map()]));
    let total = 0;
    for (const c of counts) {
      byLevel.get(c.level)?.set(c.bucket, c.n);
      total += c.n;
    }
    const levels = Object.fromEntries(SEVERITY_LEVELS.map((level) => [level, countSeries(window, byLevel.get(level) ?? new Map())]));
    return { bucket_secs: window.bucketSecs, total, ...(levels as Record<SeverityLevel, [number, number][]>) };
  });
}
