/** GET /api/v1/log-alerts. */

import type { FastifyInstance } from 'fastify';
import { readLogAlerts } from '../../store/reads/log-alerts.js';
import { DAY_SECS, nsRange, readOptions, requestWindow, type DataRouteDeps } from '../data-route.js';
import { badRequest } from '../errors.js';
import { optionalText, single, type Query } from '../query-params.js';
import type { RequestContext } from '../request-context.js';

/** Contract limit: log alerts returned. */
export const MAX_ALERTS = 200;

/** `kind`: `new`, `spike` or `silence`, or undefined when absent or empty. */
export function alertKind(query: Query): 'new' | 'spike' | 'silence' | undefined {
  const value = single(query, 'kind');
  if (value === undefined || value === '') return undefined;
  if (value !== 'new' && value !== 'spike' && value !== 'silence') throw badRequest('invalid kind (expected new, spike or silence)');
  return value;
}

export function registerLogAlertsRoute(app: FastifyInstance, deps: DataRouteDeps, context: RequestContext): void {
  app.get('/api/v1/log-alerts', async (request) => {
    const window = requestWindow(request, DAY_SECS, deps.nowMs());
    const query = request.query as Query;
    const filter = {
      // A row list: without `until` it reaches 60 s past now.
      ...nsRange(window, 'log_alerts', window.rowsEndMs),
      kind: alertKind(query),
      service: optionalText(query, 'service'),
    };
    return readLogAlerts(deps.store, filter, window.endMs, window.nowMs, MAX_ALERTS, readOptions(context, request));
  });
}

