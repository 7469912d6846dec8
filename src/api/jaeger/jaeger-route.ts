/**
 * How every Jaeger route is declared: a GET with its declared answer, parameters read raw (Jaeger
 * parses them itself, in its own order and words), every failure answered in the API's own error
 * shape by `answerError`, and the answer written by JSON.stringify (these answers hold no 64-bit
 * integers, and the native writer is several times faster than the API's exact-integer one on a
 * search page's thousands of tags).
 */

import type { FastifyInstance, FastifyReply } from 'fastify';
import type { z } from 'zod';
import { readOptions } from '../data-route.js';
import { declareRoute } from '../declared-route.js';
import type { RequestContext } from '../request-context.js';
import type { RawQuery } from './params.js';

export interface JaegerInput {
  query: RawQuery;
  params: Record<string, string>;
  options: ReturnType<typeof readOptions>;
}

/** A declarer of routes under `prefix`. */
export function jaegerRouteDeclarer(
  app: FastifyInstance,
  context: RequestContext,
  prefix: string,
  answerError: (reply: FastifyReply, error: unknown) => FastifyReply,
) {
  return <R extends z.ZodType>(url: string, response: R, params: z.ZodType, handler: (input: JaegerInput) => Promise<z.output<R>>): void => {
    declareRoute(app, { method: 'GET', url: `${prefix}${url}`, params, response }, async ({ request, reply }) => {
      try {
        const body = await handler({
          query: request.query as RawQuery,
          params: request.params as Record<string, string>,
          options: readOptions(context, request),
        });
        return reply.type('application/json; charset=utf-8').send(JSON.stringify(body));
      } catch (error) {
        return answerError(reply, error);
      }
    });
  };
}
