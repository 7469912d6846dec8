/**
 * How the tools reach the API: every tool reads the API's own JSON routes, so window rules,
 * validation, limits, authentication and the query timeout are the API's, for both transports.
 * In the server, calls are injected in process; `svc mcp` calls a running svc over HTTP.
 */

import type { FastifyInstance } from 'fastify';
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

function parseBody(text: string, contentType: string | undefined): unknown {
  if (!(contentType ?? '').includes('json') || text === '') return text;
  return parseJsonExact(text);
}

/**
 * Calls through fastify's inject with the MCP request's own credentials, so each tool read is
 * authorised, limited and timed exactly like the same read from any other API client.
 */
export function injectCaller(app: FastifyInstance, headers: { authorization?: string; cookie?: string }, remoteAddress: string | undefined): ApiCaller {
  const forwarded: Record<string, string> = {};
  if (headers.authorization !== undefined) forwarded.authorization = headers.authorization;
  if (headers.cookie !== undefined) forwarded.cookie = headers.cookie;
  return async (path, query) => {
    const response = await app.inject({ method: 'GET', url: `${path}${queryString(query)}`, headers: forwarded, remoteAddress });
    return { status: response.statusCode, body: parseBody(response.body, response.headers['content-type'] as string | undefined) };
  };
}

export interface HttpCallerOptions {
  /** Base URL of a running svc API, e.g. http://127.0.0.1:8090 */
  baseUrl: string;
  username?: string;
  password?: string;
  /** Client-side bound per call; the API's own query timeout answers first when it is shorter. */
  timeoutMs: number;
}

/** What a sign-in gave: a session cookie, an API without authentication, or the refusal to pass on. */
type SignIn = { cookie: string } | { open: true } | { refused: ApiAnswer };

/**
 * Calls a running svc over HTTP. With credentials it signs in once and reads with the session
 * cookie, so reads cost no password check each (Basic would, and parallel checks from one client
 * can meet the password-check limit); an expired session is renewed once on a 401.
 */
export function httpCaller(options: HttpCallerOptions): ApiCaller {
  const base = options.baseUrl.replace(/\/+$/, '');
  const withCredentials = options.username !== undefined && options.username !== '';
  const read = async (path: string, query: Record<string, QueryValue> | undefined, cookie: string | undefined): Promise<ApiAnswer> => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (cookie !== undefined) headers.cookie = cookie;
    const response = await fetch(`${base}${path}${queryString(query)}`, { headers, signal: AbortSignal.timeout(options.timeoutMs) });
    return { status: response.status, body: parseBody(await response.text(), response.headers.get('content-type') ?? undefined) };
  };
  const signIn = async (): Promise<SignIn> => {
    const response = await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ username: options.username, password: options.password ?? '' }),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const text = await response.text();
    // The auth routes exist only with authentication on.
    if (response.status === 404) return { open: true };
    const cookie = /(?:^|[;,]\s*)(svc_session=[^;]+)/.exec(response.headers.get('set-cookie') ?? '')?.[1];
    if (response.status === 204 && cookie !== undefined) return { cookie };
    return { refused: { status: response.status, body: parseBody(text, response.headers.get('content-type') ?? undefined) } };
  };
  let session: Promise<SignIn> | undefined;
  const currentSession = (): Promise<SignIn> => {
    // A refusal is not kept: the next call signs in again (the limit may have passed).
    session ??= signIn().then((result) => {
      if ('refused' in result) session = undefined;
      return result;
    }, (error: unknown) => {
      session = undefined;
      throw error;
    });
    return session;
  };
  return async (path, query) => {
    if (!withCredentials) return read(path, query, undefined);
    const first = await currentSession();
    if ('refused' in first) return first.refused;
    const answer = await read(path, query, 'cookie' in first ? first.cookie : undefined);
    if (answer.status !== 401 || !('cookie' in first)) return answer;
    session = undefined;
    const renewed = await currentSession();
    if ('refused' in renewed) return renewed.refused;
    return read(path, query, 'cookie' in renewed ? renewed.cookie : undefined);
  };
}

/**
 * The body of a 200 answer; any other status becomes an ApiCallError with the API's own message
 * (which names the bad parameter), or `notFoundMessage` for a 404.
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
  const message = typeof answer.body === 'object' && answer.body !== null && typeof (answer.body as { error?: unknown }).error === 'string' ? (answer.body as { error: string }).error : `http ${answer.status}`;
  throw new ApiCallError(answer.status, message);
}
