/** PUT /api/v1/log-templates/{id}/silence: the only route that changes stored data. */

import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SilenceSetting } from '../../mining/alert-silence.js';
import { insertSilence } from '../../store/silence.js';
import { readTemplateRows } from '../../store/reads/log-templates.js';
import { readOptions, type DataRouteDeps } from '../data-route.js';
import { badRequest, notFound, unsupportedMediaType } from '../errors.js';
import { decimalU64 } from '../query-params.js';
import type { RequestContext } from '../request-context.js';

/** Contract limits of `minutes`. */
export const MIN_SILENCE_MINUTES = 1;
export const MAX_SILENCE_MINUTES = 1440;
const BAD_BODY = 'body must be {enabled: bool, minutes: 1..=1440}';
const BAD_MINUTES = 'minutes must be 1..=1440';

/** True when the request says its body is JSON (`application/json`, any parameters). */
export function isJsonContentType(request: FastifyRequest): boolean {
  const header = request.headers['content-type'];
  if (typeof header !== 'string') return false;
  return header.split(';', 1)[0].trim().toLowerCase() === 'application/json';
}

/** Exactly `{enabled: bool, minutes: 1..=1440}`, else 400. */
export function parseSilenceBody(body: unknown): SilenceSetting {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest(BAD_BODY);
  const keys = Object.keys(body);
  const { enabled, minutes } = body as Record<string, unknown>;
  if (keys.length !== 2 || typeof enabled !== 'boolean' || typeof minutes !== 'number') throw badRequest(BAD_BODY);
  if (!Number.isInteger(minutes) || minutes < MIN_SILENCE_MINUTES || minutes > MAX_SILENCE_MINUTES) throw badRequest(BAD_MINUTES);
  return { enabled, minutes };
}

export function registerLogSilenceRoute(app: FastifyInstance, deps: DataRouteDeps & { versionMs: () => number }, context: RequestContext): void {
  app.put<{ Params: { id: string } }>('/api/v1/log-templates/:id/silence', async (request) => {
    if (!isJsonContentType(request)) throw unsupportedMediaType();
    const templateId = decimalU64('id', request.params.id);
    const setting = parseSilenceBody(request.body);
    const nowMs = deps.nowMs();
    const known = await readTemplateRows(deps.store, [templateId], nowMs, readOptions(context, request));
    if (!known.has(templateId)) throw notFound();
    await insertSilence(deps.store, templateId, setting, deps.versionMs());
    return { enabled: setting.enabled, minutes: setting.minutes };
  });
}
