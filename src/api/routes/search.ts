/** GET /api/v1/search: services, templates and story groups matching `q`; a 32-hex q is a trace id. */

import type { FastifyInstance } from 'fastify';
import { oldestAllowedNs } from '../../store/lifetimes.js';
import { searchGroups, searchServices, searchTemplates } from '../../store/reads/search.js';
import { readOptions, type DataRouteDeps } from '../data-route.js';
import { badRequest } from '../errors.js';
import { MAX_TEXT_CHARS, single, type Query } from '../query-params.js';
import type { RequestContext } from '../request-context.js';

const TRACE_ID = /^[0-9a-fA-F]{32}$/;
const SERVICES_WINDOW_MS = 86_400_000;

export function registerSearchRoute(app: FastifyInstance, deps: DataRouteDeps, context: RequestContext): void {
  app.get('/api/v1/search', async (request) => {
    const q = single(request.query as Query, 'q');
    if (q === undefined || q === '' || [...q].length > MAX_TEXT_CHARS) throw badRequest(`q must be within 1..${MAX_TEXT_CHARS} characters`);
    const nowMs = deps.nowMs();
    const range = {
      // The service list's rule: spans in the last 24 h, to the minute.
      servicesFromSecs: Math.floor((nowMs - SERVICES_WINDOW_MS) / 60_000) * 60,
      templatesOldestNs: oldestAllowedNs('templates', nowMs),
      storiesOldestNs: oldestAllowedNs('stories', nowMs),
    };
    const options = readOptions(context, request);
    const [services, templates, groups] = await Promise.all([
      searchServices(deps.store, q, range, options),
      searchTemplates(deps.store, q, range, options),
      searchGroups(deps.store, q, range, options),
    ]);
    return { services, templates, groups, trace_id: TRACE_ID.test(q) ? q.toLowerCase() : null };
  });
}
