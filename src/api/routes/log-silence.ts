/** PUT /api/v1/log-templates/{id}/silence: the only route that changes stored data. */

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { insertSilence } from '../../store/silence.js';
import { readTemplateRows } from '../../store/reads/log-templates.js';
import { readOptions, type DataRouteDeps } from '../data-route.js';
import { declareRoute } from '../declared-route.js';
import { API_ROUTES } from '../schemas/routes.js';
import { notFound } from '../errors.js';
import { decimalU64 } from '../query-params.js';
import type { RequestContext } from '../request-context.js';

/** Contract limits of `minutes`. */
export const MIN_SILENCE_MINUTES = 1;
export const MAX_SILENCE_MINUTES = 1440;
const BAD_BODY = 'body must be {enabled: bool, minutes: 1..=1440}';
const BAD_MINUTES = 'minutes must be 1..=1440';

/**
 * Exactly `{enabled: bool, minutes: 1..=1440}`: any other shape (missing, extra or mistyped keys)
 * is BAD_BODY; a number outside the range only once the shape is right.
 */
export const silenceBody = z.strictObject({ enabled: z.boolean({ error: BAD_BODY }), minutes: z.number({ error: BAD_BODY }) }, { error: BAD_BODY }).refine(
  // Object checks run after the shape's own refusals, which therefore come first.
  ({ minutes }) => typeof minutes !== 'number' || (Number.isInteger(minutes) && minutes >= MIN_SILENCE_MINUTES && minutes <= MAX_SILENCE_MINUTES),
  BAD_MINUTES,
);

export function registerLogSilenceRoute(app: FastifyInstance, deps: DataRouteDeps & { versionMs: () => number }, context: RequestContext): void {
  const route = {
    method: 'PUT',
    ...API_ROUTES['log-templates/:id/silence'],
    jsonBody: true,
    params: z.object({ id: decimalU64('id') }),
    body: silenceBody,
  } as const;
  declareRoute(app, route, async ({ params: { id: templateId }, body: setting, request }) => {
    const nowMs = deps.nowMs();
    const known = await readTemplateRows(deps.store, [templateId], nowMs, readOptions(context, request));
    if (!known.has(templateId)) throw notFound();
    await insertSilence(deps.store, templateId, setting, deps.versionMs());
    return { enabled: setting.enabled, minutes: setting.minutes };
  });
}
