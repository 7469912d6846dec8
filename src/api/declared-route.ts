/**
 * One declaration per route: its path and query parameters, its body and its response, as zod
 * schemas. Parameters are parsed from the declaration (the first refusal is the 400 with the
 * contract's message); the response schema types what the handler returns, is what the web app's
 * types derive from (src/api/schemas/), and is checked against real replies in tests
 * (response-check.ts). Replies are not serialized from it: the JSON reply serializer keeps exact
 * 64-bit integers and every field as they are.
 */

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { unsupportedMediaType } from './errors.js';
import { parseDeclared } from './query-params.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The declared response of a JSON API route, for the response check. */
    response?: z.ZodType;
  }
}

const NONE = z.object({});
type None = typeof NONE;

export interface RouteDeclaration<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType, R extends z.ZodType> {
  method: 'GET' | 'PUT';
  url: string;
  /** The request must say its body is `application/json` (checked first: 415). */
  jsonBody?: boolean;
  params?: P;
  query?: Q;
  body?: B;
  /** The 200 answer. */
  response: R;
}

export interface DeclaredInput<P extends z.ZodType, Q extends z.ZodType, B extends z.ZodType> {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** Registers a declared route; the handler gets parsed parameters and returns the declared response (or a reply it sent itself). */
export function declareRoute<P extends z.ZodType = None, Q extends z.ZodType = None, B extends z.ZodType = z.ZodUndefined, R extends z.ZodType = z.ZodType>(
  app: FastifyInstance,
  declaration: RouteDeclaration<P, Q, B, R>,
  handler: (input: DeclaredInput<P, Q, B>) => Promise<z.output<R> | FastifyReply>,
): void {
  const { params = NONE, query = NONE, body } = declaration;
  app.route({
    method: declaration.method,
    url: declaration.url,
    config: { response: declaration.response },
    handler: async (request, reply) => {
      if (declaration.jsonBody === true && !isJsonContentType(request)) throw unsupportedMediaType();
      const input = {
        params: parseDeclared(params, request.params) as z.output<P>,
        query: parseDeclared(query, request.query) as z.output<Q>,
        body: (body === undefined ? undefined : parseDeclared(body, request.body)) as z.output<B>,
        request,
        reply,
      };
      return handler(input);
    },
  });
}

/** True when the request says its body is JSON (`application/json`, any parameters). */
export function isJsonContentType(request: FastifyRequest): boolean {
  const header = request.headers['content-type'];
  if (typeof header !== 'string') return false;
  return header.split(';', 1)[0]!.trim().toLowerCase() === 'application/json';
}
