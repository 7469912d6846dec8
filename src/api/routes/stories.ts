/** GET /api/v1/stories/{story_id} and /api/v1/stories/series. */

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { readStoryCounts, readStoryJson } from '../../store/reads/stories.js';
import { HOUR_SECS, nsRange, readOptions, windowQuery, type DataRouteDeps } from '../data-route.js';
import { declareRoute } from '../declared-route.js';
import { API_ROUTES } from '../schemas/routes.js';
import { notFound } from '../errors.js';
import { inOrder, optionalText, storyKind, traceIdPath } from '../query-params.js';
import type { RequestContext } from '../request-context.js';
import { countSeries } from '../series.js';

export function registerStoryRoutes(app: FastifyInstance, deps: DataRouteDeps, context: RequestContext): void {
  const seriesRoute = {
    method: 'GET',
    ...API_ROUTES['stories/series'],
    query: inOrder(windowQuery(HOUR_SECS, deps.nowMs), z.object({ kind: storyKind, service: optionalText('service') })),
  } as const;
  declareRoute(app, seriesRoute, async ({ query, request }) => {
    const { window } = query;
    const filter = { ...nsRange(window, 'stories'), kind: query.kind, rcService: query.service };
    const counts = await readStoryCounts(deps.store, filter, window.bucketSecs, readOptions(context, request));
    const byKind = { error: new Map<number, number>(), slow: new Map<number, number>() };
    for (const row of counts) byKind[row.kind].set(row.bucket, row.stories);
    return { bucket_secs: window.bucketSecs, error: countSeries(window, byKind.error), slow: countSeries(window, byKind.slow) };
  });

  const storyRoute = { method: 'GET', ...API_ROUTES['stories/:storyId'], params: z.object({ storyId: traceIdPath }) } as const;
  declareRoute(app, storyRoute, async ({ params: { storyId }, request, reply }) => {
    const json = await readStoryJson(deps.store, storyId, deps.nowMs(), readOptions(context, request));
    if (json === null) throw notFound();
    // The stored text is already the API shape with exact 64-bit integers: sent as bytes, so the
    // JSON reply serializer neither re-encodes nor quotes it.
    return reply.type('application/json; charset=utf-8').send(Buffer.from(json, 'utf8'));
  });
}
