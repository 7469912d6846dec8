import { navigate } from '../app/router';

/** An API failure carrying the server's `{"error": "..."}` message and status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
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
  return new ApiError(response.status, message);
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

/** Builds `/api/v1/<path>?<params>` leaving out empty values, so the server applies its defaults. */
export function apiPath(path: string, params: Record<string, string | number | boolean | undefined | null> = {}): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null || value === '' || value === false) continue;
    search.set(key, value === true ? '1' : String(value));
  }
  const query = search.toString();
  return `/api/v1/${path}${query === '' ? '' : `?${query}`}`;
}
