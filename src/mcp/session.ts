/**
 * Reads under a session: sign in once with the account (POST /api/v1/auth/login) and read with
 * the session cookie, so a read costs no password check (Basic would cost one each, and parallel
 * checks from one client can meet the contract's password-check limit). Shared by both transports.
 */

import type { ApiAnswer, ApiCaller, QueryValue } from './api-caller.js';

export const LOGIN_PATH = '/api/v1/auth/login';
export const SESSION_COOKIE = 'svc_session';

/** What a sign-in gave: a session cookie, an API without authentication, or the refusal to pass on. */
export type SignIn = { cookie: string } | { open: true } | { refused: ApiAnswer };

/** Reads one path with the given cookie header (undefined: no credentials). */
export type CookieRead = (path: string, query: Record<string, QueryValue> | undefined, cookie: string | undefined) => Promise<ApiAnswer>;

/** The sign-in's outcome from the login route's status, cookie header and answer. */
export function signInResult(status: number, setCookie: string | undefined, answer: ApiAnswer): SignIn {
  // The auth routes exist only with authentication on.
  if (status === 404) return { open: true };
  const cookie = new RegExp(`(?:^|[;,]\\s*)(${SESSION_COOKIE}=[^;]+)`).exec(setCookie ?? '')?.[1];
  if (status === 204 && cookie !== undefined) return { cookie };
  return { refused: answer };
}

/** Holds one account's session; a refusal or failure is not kept, so the next read signs in again. */
export class Session {
  private current: Promise<SignIn> | undefined;
  constructor(private readonly signIn: () => Promise<SignIn>) {}

  get(): Promise<SignIn> {
    this.current ??= this.signIn().then(
      (result) => {
        if ('refused' in result) this.current = undefined;
        return result;
      },
      (error: unknown) => {
        this.current = undefined;
        throw error;
      },
    );
    return this.current;
  }

  /** Forgets the session (it ended: a read with its cookie got 401). */
  drop(): void {
    this.current = undefined;
  }
}

/** A caller reading under `session`; an ended session is renewed once on a 401. */
export function sessionCaller(session: Session, read: CookieRead): ApiCaller {
  const cookieOf = (signIn: SignIn) => ('cookie' in signIn ? signIn.cookie : undefined);
  return async (path, query) => {
    const first = await session.get();
    if ('refused' in first) return first.refused;
    const answer = await read(path, query, cookieOf(first));
    if (answer.status !== 401 || !('cookie' in first)) return answer;
    session.drop();
    const renewed = await session.get();
    if ('refused' in renewed) return renewed.refused;
    return read(path, query, cookieOf(renewed));
  };
}
