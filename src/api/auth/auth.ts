import { randomBytes } from 'node:crypto';
import { verify } from '@node-rs/argon2';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthSettings } from '../../config/settings.js';
import type { Logger } from '../../util/log.js';
import { ApiError, sendError, tooManyAttempts, unauthorized, unsupportedMediaType } from '../errors.js';
import { AttemptLimiter } from './attempt-limiter.js';
import { signSession, verifySession } from './session-token.js';
import { isApiPath } from '../connection-errors.js';

export const SESSION_COOKIE = 'svc_session';

/** Routes under /api/ that answer without a session (the contract's open-route list). */
const OPEN_API_PATHS = new Set(['/api/v1/config', '/api/v1/auth/me', '/api/v1/auth/login', '/api/v1/auth/logout']);

export interface AuthDeps {
  logger: Logger;
  nowMs?: () => number;
}

/**
 * Authentication as the contract describes it: one account, stateless HMAC-signed session cookies,
 * HTTP Basic for scripts, and 5 password checks per client IP per 5 minutes. With authentication
 * off, the auth routes do not exist (404) and /login redirects to /.
 */
export function registerAuth(app: FastifyInstance, settings: AuthSettings, deps: AuthDeps): void {
  if (!settings.enabled) {
    app.get('/login', async (_request, reply) => reply.redirect('/'));
    return;
  }
  const nowMs = deps.nowMs ?? Date.now;
  const limiter = new AttemptLimiter(nowMs);
  const key = settings.session_key ?? randomBytes(32);
  if (settings.session_key === null) deps.logger.warn('auth.session_key is unset: a random key signs sessions, so a restart signs everyone out');

  async function checkPassword(address: string, username: string, password: string): Promise<boolean> {
    const waitSecs = limiter.take(address);
    if (waitSecs > 0) throw tooManyAttempts(waitSecs);
    let valid = false;
    try {
      // Verify even for a wrong username so both failures cost the same time.
      const passwordOk = await verify(settings.password_hash, password);
      valid = passwordOk && username === settings.username;
    } catch {
      valid = false;
    }
    if (valid) limiter.clear(address);
    return valid;
  }

  function sessionUser(request: FastifyRequest): string | null {
    const token = readCookie(request.headers.cookie, SESSION_COOKIE);
    return token === undefined ? null : verifySession(token, key, Math.floor(nowMs() / 1000));
  }

  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0];
    // POST /mcp (the MCP endpoint) needs the same credentials as the API; a GET of it is the app's.
    const mcp = path === '/mcp' && request.method !== 'GET' && request.method !== 'HEAD';
    if (!(isApiPath(path) || mcp) || OPEN_API_PATHS.has(path)) return;
    if (sessionUser(request) !== null) return;
    const basic = parseBasic(request.headers.authorization);
    if (basic !== null) {
      try {
        if (await checkPassword(request.socket.remoteAddress ?? '', basic.username, basic.password)) return;
      } catch (error) {
        return sendError(reply, error instanceof ApiError ? error : unauthorized());
      }
    }
    return sendError(reply, unauthorized());
  });

  app.post('/api/v1/auth/login', async (request, reply) => {
    requireJson(request);
    const body = request.body as { username?: unknown; password?: unknown } | undefined;
    if (typeof body?.username !== 'string' || typeof body.password !== 'string') throw unauthorized();
    if (!(await checkPassword(request.socket.remoteAddress ?? '', body.username, body.password))) throw unauthorized();
    const ttlSecs = settings.session_ttl_secs;
    const token = signSession(body.username, Math.floor(nowMs() / 1000) + ttlSecs, key);
    void reply.header('set-cookie', cookie(token, ttlSecs, settings.secure_cookie));
    return reply.code(204).send();
  });

  app.post('/api/v1/auth/logout', async (request, reply) => {
    requireJson(request);
    void reply.header('set-cookie', cookie('', 0, settings.secure_cookie));
    return reply.code(204).send();
  });

  app.get('/api/v1/auth/me', async (request) => {
    const username = sessionUser(request);
    if (username === null) throw unauthorized();
    return { username };
  });
}

function requireJson(request: FastifyRequest): void {
  const type = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json') throw unsupportedMediaType();
}

function cookie(value: string, maxAgeSecs: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${value}; Max-Age=${maxAgeSecs}; Path=/; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

export function parseBasic(header: string | undefined): { username: string; password: string } | null {
  if (header === undefined || !/^basic /i.test(header)) return null;
  const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
