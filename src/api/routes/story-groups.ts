/** GET /api/v1/story-groups and /api/v1/story-groups/{fingerprint}. */

import type { FastifyInstance } from 'fastify';
import { readGroupExamples, readStoryGroups } from '../../store/reads/story-groups.js';
import { DAY_SECS, HOUR_SECS, nsRange, readOptions, requestWindow, type DataRouteDeps } from '../data-route.js';
import { notFound } from '../errors.js';
import { decimalU64, optionalText, storyKind, type Query } from '../query-params.js';
import type { RequestContext } from '../request-context.js';

/** Contract limit: story groups returned. */
export const MAX_GROUPS = 100;
/** Examples shown for one group: enough to compare, few enough to read. */
export const MAX_EXAMPLES = 20;

export function registerStoryGroupRoutes(app: FastifyInstance, deps: DataRouteDeps, context: RequestContext): void {
  app.get('/api/v1/story-groups', async (request) => {
    const window = requestWindow(request, HOUR_SECS, deps.nowMs());
    const query = request.query as Query;
    const filter = { ...nsRange(window, 'stories'), kind: storyKind(query), rcService: optionalText(query, 'service') };
    return readStoryGroups(deps.store, filter, window.bucketSecs, MAX_GROUPS, readOptions(context, request));
  });

  app.get<{ Params: { fingerprint: string } }>('/api/v1/story-groups/:fingerprint', async (request) => {
    const fingerprint = decimalU64('fingerprint', request.params.fingerprint);
    const window = requestWindow(request, DAY_SECS, deps.nowMs());
    const filter = { ...nsRange(window, 'stories'), fingerprint };
    const options = readOptions(context, request);
    const [groups, examples] = await Promise.all([
      readStoryGroups(deps.store, filter, window.bucketSecs, 1, options),
      readGroupExamples(deps.store, filter, MAX_EXAMPLES, options),
    ]);
    if (groups.length === 0) throw notFound();
    return { group: groups[0], examples };
  });
}
