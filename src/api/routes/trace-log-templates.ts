/** GET /api/v1/traces/{trace_id}/log-templates. */

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { readTraceLogTemplates } from '../../store/reads/trace-log-templates.js';
import { readOptions, type DataRouteDeps } from '../data-route.js';
import { declareRoute } from '../declared-route.js';
import { API_ROUTES } from '../schemas/routes.js';
import { traceIdPath } from '../query-params.js';
import type { RequestContext } from '../request-context.js';

export function registerTraceLogTemplatesRoute(app: FastifyInstance, deps: DataRouteDeps, context: RequestContext): void {
  const route = {
    method: 'GET',
    ...API_ROUTES['traces/:traceId/log-templates'],
    params: z.object({ traceId: traceIdPath }),
  } as const;
  declareRoute(app, route, async ({ params: { traceId }, request }) => {
    return readTraceLogTemplates(deps.store, traceId, deps.nowMs(), readOptions(context, request));
  });
}
