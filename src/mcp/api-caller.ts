/**
 * How the tools reach the API: every tool reads the API's own JSON routes, so window rules,
 * validation, limits, authentication and the query timeout are the API's, for both transports.
 * In the server, reads are injected in process (inject-caller.ts); `svc mcp` reads a running svc
 * over HTTP (http-caller.ts).
 */

import type { RouteName, RouteReply } from '../api/schemas/routes.js';
import { routePath, type PathParams } from '../api/schemas/route-path.js';
import { parseJsonExact } from '../util/json.js';

export type QueryValue = string | number | boolean | undefined;

export interface ApiAnswer {
  status: number;
  /** The JSON body with exact 64-bit integers (bigints), or the raw text of a non-JSON answer. */
  body: unknown;
}

/** GETs an API path (already percent-encoded) with a query. */
export type ApiCaller = (path: string, query?: Record<string, QueryValue>) => Promise<ApiAnswer>;

/** An API answer other than 200, carried to the agent as a tool error. */
export class ApiCallError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiCallError';
  }
}

export function queryString(query: Record<string, QueryValue> = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined) continue;
    params.set(name, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

export function parseBody(text: string, contentType: string | undefined): unknown {
  if (!(contentType ?? '').includes('json') || text === '') return text;
  return parseJsonExact(text);
}

/**
 * The body of a 200 answer; any other status becomes an ApiCallError with the API's own message
 * (which names the bad parameter), or `notFoundMessage` for a 404. Tools read through getRoute,
 * which types the body from the route's declaration.
 */
export async function getJson(caller: ApiCaller, path: string, query?: Record<string, QueryValue>, notFoundMessage?: string): Promise<unknown> {
  let answer: ApiAnswer;
  try {
    answer = await caller(path, query);
  } catch (error) {
    throw new ApiCallError(0, `svc api unreachable: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (answer.status === 200) return answer.body;
  if (answer.status === 404 && notFoundMessage !== undefined) throw new ApiCallError(404, notFoundMessage);
  const message =
    typeof answer.body === 'object' && answer.body !== null && typeof (answer.body as { error?: unknown }).error === 'string'
      ? (answer.body as { error: string }).error
      : `http ${answer.status}`;
  throw new ApiCallError(answer.status, message);
}

/** What a read of route `N` sends: its path parameters (when it has any) and its query. */
export type RouteRequest<N extends RouteName> = ([PathParams<N>] extends [never] ? { params?: undefined } : { params: Record<PathParams<N>, string> }) & {
  query?: Record<string, QueryValue>;
  /** The tool error for a 404, naming what was not found and what to try. */
  notFoundMessage?: string;
};

/**
 * Reads a declared route and returns its reply typed from the route's declaration
 * (src/api/schemas/routes.ts), so a changed declaration fails to compile here. Errors as getJson.
 */
export async function getRoute<N extends RouteName>(caller: ApiCaller, name: N, request: RouteRequest<N>): Promise<RouteReply<N>> {
  const path = routePath(name, (request.params ?? {}) as Record<PathParams<N>, string>);
  // The reply is the route's declared response: the server's tests hold every reply to it (response-check.ts).
  return (await getJson(caller, path, request.query, request.notFoundMessage)) as RouteReply<N>;
}
