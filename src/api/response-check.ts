/**
 * Holds every reply of a declared route to its declared response (declared-route.ts), so a
 * declaration cannot drift from what the route sends. Tests turn it on (createApi's
 * `checkResponses`); production does not pay for it. A mismatch turns the reply into a 500 naming
 * the route and the first differences, which fails any test expecting the route's 200.
 */

import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { parseJsonExact, stringifyJson } from '../util/json.js';
import { ApiError, errorBody, errorHeaders } from './errors.js';

export function checkResponses(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const declared = request.routeOptions.config?.response;
    if (declared === undefined || reply.statusCode !== 200 || request.method === 'HEAD') return payload;
    const problem = mismatch(declared, payload);
    if (problem === undefined) return payload;
    const message = `${request.method} ${request.routeOptions.url} answered a body its declared response refuses: ${problem}`;
    // Printed as well: a test asserting the status alone shows only 500.
    console.error(message);
    const error = new ApiError(500, message);
    void reply.code(error.status).headers(errorHeaders(error)).type('application/json; charset=utf-8');
    return stringifyJson(errorBody(error));
  });
}

/** Why `payload` (the serialized reply) is not an instance of `declared`; undefined when it is. */
export function mismatch(declared: z.ZodType, payload: unknown): string | undefined {
  const text = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : undefined;
  if (text === undefined) return 'the body is not JSON text';
  let body: unknown;
  try {
    body = parseJsonExact(text);
  } catch {
    return 'the body is not JSON';
  }
  const result = declared.safeParse(body);
  return result.success ? undefined : z.prettifyError(result.error);
}
