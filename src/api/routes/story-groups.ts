/** GET /api/v1/story-groups and /api/v1/story-groups/{fingerprint}. */

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { readGroupExamples, readStoryGroups } from '../../store/reads/story-groups.js';
import { DAY_SECS, HOUR_SECS, nsRange, readOptions, windowQuery, type DataRouteDeps } from '../data-route.js';
import { declareRoute } from '../declared-route.js';
import { API_ROUTES } from '../schemas/routes.js';
import { notFound } from '../errors.js';
import { decimalU64, inOrder, optionalText, storyKind } from '../query-params.js';
import type { RequestContext } from '../request-context.js';

/** Contract limit: story groups returned. */
export const MAX_GROUPS = 100;
/** Examples shown for one group: enough to compare, few enough to read. */
export const MAX_EXAMPLES = 20;

export function registerStoryGroupRoutes(app: FastifyInstance, deps: DataRouteDeps, context: RequestContext): void {
  const listRoute = {
    method: 'GET',
    ...API_ROUTES['story-groups'],
    query: inOrder(windowQuery(HOUR_SECS, deps.nowMs), z.object({ kind: storyKind, service: optionalText('service') })),
  } as const;
  declareRoute(app, listRoute, async ({ query, request }) => {
    const { window } = query;
    const filter = { ...nsRange(window, 'stories'), kind: query.kind, rcService: query.service };
    return readStoryGroups(deps.store, filter, window.bucketSecs, MAX_GROUPS, readOptions(context, request));
  });

  const detailRoute = {
    method: 'GET',
    ...API_ROUTES['story-groups/:fingerprint'],
    params: z.object({ fingerprint: decimalU64('fingerprint') }),
    query: windowQuery(DAY_SECS, deps.nowMs),
  } as const;
  declareRoute(app, detailRoute, async ({ params: { fingerprint }, query, request }) => {
    const { window } = query;
    const filter = { ...nsRange(window, 'stories'), fingerprint };
    const options = readOptions(context, request);
    const [groups, examples] = await Promise.all([
      readStoryGroups(deps.store, filter, window.bucketSecs, 1, options),
      readGroupExamples(deps.store, filter, MAX_EXAMPLES, options),
    ]);
    const group = groups[0];
    if (group === undefined) throw notFound();
    return { group, examples };
  });
}
