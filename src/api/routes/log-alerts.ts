/** GET /api/v1/log-alerts. */

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { readLogAlerts } from '../../store/reads/log-alerts.js';
import { DAY_SECS, nsRange, readOptions, windowQuery, type DataRouteDeps } from '../data-route.js';
import { declareRoute } from '../declared-route.js';
import { API_ROUTES } from '../schemas/routes.js';
import { inOrder, optionalText, param } from '../query-params.js';
import type { RequestContext } from '../request-context.js';

/** Contract limit: log alerts returned. */
export const MAX_ALERTS = 200;

const filters = z.object({
  kind: param('kind', z.enum(['new', 'spike', 'silence'], { error: 'invalid kind (expected new, spike or silence)' })),
  service: optionalText('service'),
});

export function registerLogAlertsRoute(app: FastifyInstance, deps: DataRouteDeps, context: RequestContext): void {
  const route = { method: 'GET', ...API_ROUTES['log-alerts'], query: inOrder(windowQuery(DAY_SECS, deps.nowMs), filters) } as const;
  declareRoute(app, route, async ({ query: q, request }) => {
    const { window } = q;
    const filter = {
      // A row list: without `until` it reaches 60 s past now.
      ...nsRange(window, 'log_alerts', window.rowsEndMs),
      kind: q.kind,
      service: q.service,
    };
    return readLogAlerts(deps.store, filter, window.endMs, window.nowMs, MAX_ALERTS, readOptions(context, request));
  });
}
