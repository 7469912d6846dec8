/** `svc mcp`'s reads: a running svc over HTTP, signed in with the account when one is given. */

import { parseBody, queryString, type ApiCaller } from './api-caller.js';
import { LOGIN_PATH, Session, sessionCaller, signInResult, type CookieRead } from './session.js';

export interface HttpCallerOptions {
  /** Base URL of a running svc API, e.g. http://127.0.0.1:8090 */
  baseUrl: string;
  username?: string;
  password?: string;
  /** Client-side bound per call; the API's own query timeout answers first when it is shorter. */
  timeoutMs: number;
}

export function httpCaller(options: HttpCallerOptions): ApiCaller {
  const base = options.baseUrl.replace(/\/+$/, '');
  const read: CookieRead = async (path, query, cookie) => {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (cookie !== undefined) headers.cookie = cookie;
    const response = await fetch(`${base}${path}${queryString(query)}`, { headers, signal: AbortSignal.timeout(options.timeoutMs) });
    return { status: response.status, body: parseBody(await response.text(), response.headers.get('content-type') ?? undefined) };
  };
  if (options.username === undefined || options.username === '') return (path, query) => read(path, query, undefined);
  const session = new Session(async () => {
    const response = await fetch(`${base}${LOGIN_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ username: options.username, password: options.password ?? '' }),
      signal: AbortSignal.timeout(options.timeoutMs),
    });
    const answer = { status: response.status, body: parseBody(await response.text(), response.headers.get('content-type') ?? undefined) };
    return signInResult(response.status, response.headers.get('set-cookie') ?? undefined, answer);
  });
  return sessionCaller(session, read);
}
