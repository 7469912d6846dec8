/**
 * The /mcp endpoint's reads: injected into the API in process, so each tool read passes the same
 * auth hook, validation and request bound as any API client's. A request with Basic credentials
 * (already checked by the auth hook for /mcp itself) reads under a session signed in once per
 * credential and kept across requests, so its reads add no password checks; a request with a
 * session cookie reads with that cookie.
 */

import type { FastifyInstance } from 'fastify';
import { parseBasic } from '../api/auth/auth.js';
import { parseBody, queryString, type ApiCaller } from './api-caller.js';
import { LOGIN_PATH, Session, sessionCaller, signInResult, type CookieRead } from './session.js';

/** Sessions kept, one per Basic credential seen (oldest dropped first). */
const MAX_SESSIONS = 256;

export interface McpRequestAuth {
  authorization?: string;
  cookie?: string;
  /** The client's address, so sign-ins count against its own password-check limit. */
  remoteAddress?: string;
}

/** Returns a factory of per-request callers sharing one session store. */
export function createInjectCallers(app: FastifyInstance): (auth: McpRequestAuth) => ApiCaller {
  const sessions = new Map<string, Session>();
  return (auth) => {
    const read: CookieRead = async (path, query, cookie) => {
      const response = await app.inject({
        method: 'GET',
        url: `${path}${queryString(query)}`,
        headers: cookie === undefined ? {} : { cookie },
        remoteAddress: auth.remoteAddress,
      });
      return { status: response.statusCode, body: parseBody(response.body, response.headers['content-type'] as string | undefined) };
    };
    const basic = parseBasic(auth.authorization);
    if (auth.authorization === undefined || basic === null) return (path, query) => read(path, query, auth.cookie);
    let session = sessions.get(auth.authorization);
    if (session === undefined) {
      session = new Session(async () => {
        const response = await app.inject({
          method: 'POST',
          url: LOGIN_PATH,
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify(basic),
          remoteAddress: auth.remoteAddress,
        });
        const answer = { status: response.statusCode, body: parseBody(response.body, response.headers['content-type'] as string | undefined) };
        const setCookie = response.headers['set-cookie'];
        return signInResult(response.statusCode, Array.isArray(setCookie) ? setCookie.join(', ') : setCookie, answer);
      });
      sessions.set(auth.authorization, session);
      if (sessions.size > MAX_SESSIONS) sessions.delete(sessions.keys().next().value!);
    }
    return sessionCaller(session, read);
  };
}
