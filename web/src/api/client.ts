import type { PathParams } from '../../../src/api/schemas/route-path';
import type { API_ROUTES, RouteName } from '../../../src/api/schemas/routes';
import type { WireOf } from '../../../src/api/schemas/wire';
import { navigate } from '../app/router';

/** An API failure carrying the server's `{"error": "..."}` message, status and `svc-error-code` (absent when no svc answered). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

// The contract: after a 401 the app sends the user to the login page once, not on every request.
let sentToLogin = false;

/** Marks a successful sign-in so a later 401 (expired session) may redirect again. */
export function resetLoginRedirect(): void {
  sentToLogin = false;
}

function redirectToLogin(): void {
  if (sentToLogin || window.location.pathname === '/login') return;
  sentToLogin = true;
  const next = window.location.pathname + window.location.search;
  navigate(`/login?next=${encodeURIComponent(next)}`);
}

async function errorFrom(response: Response): Promise<ApiError> {
  let message = `${response.status} ${response.statusText}`.trim();
  try {
    const body: unknown = await response.json();
    if (body !== null && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string') {
      message = (body as { error: string }).error;
    }
  } catch {
    // Not JSON (a proxy error page, say): the status line is the best message there is.
  }
  return new ApiError(response.status, message, response.headers.get('svc-error-code') ?? undefined);
}

/** Sends a request to the JSON API and returns the parsed body; non-2xx answers throw ApiError. */
export async function apiFetch<T>(path: string, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, { credentials: 'same-origin', ...init, headers: { accept: 'application/json', ...init.headers } });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'the API cannot be reached: is svc running?');
  }
  if (response.status === 401 && !path.startsWith('/api/v1/auth/')) redirectToLogin();
  if (!response.ok) throw await errorFrom(response);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** A JSON body request (the silence PUT, login, logout). */
export function apiSend<T>(method: 'POST' | 'PUT', path: string, body: unknown): Promise<T> {
  return apiFetch<T>(path, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

type QueryValue = string | number | boolean | undefined | null;

/**
 * The route map (src/api/schemas/routes.ts): a route's reply as the browser parses it, typed from
 * the server's declaration, so a changed declaration fails the app's typecheck where it is read.
 */
export type RouteReply<N extends RouteName> = WireOf<(typeof API_ROUTES)[N]['response']>;

/** An API path of route `N`: a string that remembers its route, so `useApi` and `fetchRoute` know the reply's type. */
export type RoutePath<N extends RouteName> = string & { readonly route: N };

/** A route's path parameters (`id` of `'log-templates/:id'`) and its query. */
export type RouteParams<N extends RouteName> = { [P in PathParams<N>]: string } & Record<string, QueryValue>;

/**
 * The path of route `name`: path parameters filled in (percent-encoded), every other parameter in the
 * query, empty values left out so the server applies its defaults.
 */
export function apiRoute<N extends RouteName>(
  name: N,
  ...[params]: [PathParams<N>] extends [never] ? [params?: Record<string, QueryValue>] : [params: RouteParams<N>]
): RoutePath<N> {
  const values: Record<string, QueryValue> = params ?? {};
  const inPath = new Set<string>();
  const path = name.replace(/:([A-Za-z]+)/g, (_match, param: string) => {
    inPath.add(param);
    return encodeURIComponent(String(values[param] ?? ''));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(values)) {
    if (inPath.has(key) || value === undefined || value === null || value === '' || value === false) continue;
    search.set(key, value === true ? '1' : String(value));
  }
  const query = search.toString();
  return `/api/v1/${path}${query === '' ? '' : `?${query}`}` as RoutePath<N>;
}

/** Reads a route; the reply is typed from its declaration. */
export function fetchRoute<N extends RouteName>(path: RoutePath<N>, init: RequestInit = {}): Promise<RouteReply<N>> {
  return apiFetch<RouteReply<N>>(path, init);
}

/** Sends a JSON body to a route (the silence PUT); the reply is typed from its declaration. */
export function sendRoute<N extends RouteName>(method: 'POST' | 'PUT', path: RoutePath<N>, body: unknown): Promise<RouteReply<N>> {
  return apiSend<RouteReply<N>>(method, path, body);
}
