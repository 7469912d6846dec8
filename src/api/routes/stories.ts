/** GET /api/v1/stories/{story_id} and /api/v1/stories/series. */

import type { FastifyInstance } from 'fastify';
import { readStoryCounts, readStoryJson } from '../../store/reads/stories.js';
import { HOUR_SECS, nsRange, readOptions, requestWindow, type DataRouteDeps } from '../data-route.js';
import { notFound } from '../errors.js';
import { optionalText, storyKind, type Query } from '../query-params.js';
import type { RequestContext } from '../request-context.js';
import { countSeries } from '../series.js';
import { parseTraceId } from './traces.js';

export function registerStoryRoutes(app: FastifyInstance, deps: DataRouteDeps, context: RequestContext): void {
  app.get('/api/v1/stories/series', async (request) => {
    const window = requestWindow(request, HOUR_SECS, deps.nowMs());
    const query = request.query as Query;
    const filter = { ...nsRange(window, 'stories'), kind: storyKind(query), rcService: optionalText(query, 'service') };
    const counts = await readStoryCounts(deps.store, filter, window.bucketSecs, readOptions(context, request));
    const byKind = { error: new Map<number, number>(), slow: new Map<number, number>() };
    for (const row of counts) byKind[row.kind].set(row.bucket, row.stories);
    return { bucket_secs: window.bucketSecs, error: countSeries(window, byKind.error), slow: countSeries(window, byKind.slow) };
  });

  app.get<{ Params: { storyId: string } }>('/api/v1/stories/:storyId', async (request, reply) => {
    const storyId = parseTraceId(request.params.storyId);
    const json = await readStoryJson(deps.store, storyId, deps.nowMs(), readOptions(context, request));
    if (json === null) throw notFound();
    // The stored text is already the API shape with exact 64-bit integers: sent as bytes, so the
    // JSON reply serializer neither re-encodes nor quotes it.
    return reply.type('application/json; charset=utf-8').send(Buffer.from(json, 'utf8'));
  });
}
