/** GET /api/v1/traces/{trace_id}/log-templates. */

import type { FastifyInstance } from 'fastify';
import { readTraceLogTemplates } from '../../store/reads/trace-log-templates.js';
import { readOptions, type DataRouteDeps } from '../data-route.js';
import type { RequestContext } from '../request-context.js';
import { parseTraceId } from './traces.js';

export function registerTraceLogTemplatesRoute(app: FastifyInstance, deps: DataRouteDeps, context: RequestContext): void {
  app.get<{ Params: { traceId: string } }>('/api/v1/traces/:traceId/log-templates', async (request) => {
    const traceId = parseTraceId(request.params.traceId);
    return readTraceLogTemplates(deps.store, traceId, deps.nowMs(), readOptions(context, request));
  });
}
