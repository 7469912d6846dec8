/** GET /api/v1/search: services, templates and story groups matching `q`; a 32-hex q is a trace id. */

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { oldestAllowedNs } from '../../store/lifetimes.js';
import { searchGroups, searchServices, searchTemplates } from '../../store/reads/search.js';
import { readOptions, type DataRouteDeps } from '../data-route.js';
import { declareRoute } from '../declared-route.js';
import { API_ROUTES } from '../schemas/routes.js';
import { MAX_TEXT_CHARS } from '../query-params.js';
import type { RequestContext } from '../request-context.js';

const TRACE_ID = /^[0-9a-fA-F]{32}$/;
const SERVICES_WINDOW_MS = 86_400_000;

export function registerSearchRoute(app: FastifyInstance, deps: DataRouteDeps, context: RequestContext): void {
  // Required and never empty: one message for absent, empty and too long.
  const qMessage = `q must be within 1..${MAX_TEXT_CHARS} characters`;
  const q = z
    .string({ error: (issue) => (issue.input === undefined ? qMessage : 'q must be given once') })
    .refine((value) => value !== '' && [...value].length <= MAX_TEXT_CHARS, qMessage);
  const route = { method: 'GET', ...API_ROUTES['search'], query: z.object({ q }) } as const;
  declareRoute(app, route, async ({ query: { q }, request }) => {
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
