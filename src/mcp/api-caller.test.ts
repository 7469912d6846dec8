/**
 * `svc mcp`'s HTTP caller against the real API server with authentication on: it signs in once and
 * reads with the session cookie, renews an expired session, passes a refusal on, and reads an API
 * without authentication with no credentials.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { hash } from '@node-rs/argon2';
import { Registry } from 'prom-client';
import { createApi, type Api, type RouteModule } from '../api/server.js';
import type { TraceRepo } from '../api/repo.js';
import { createLogger } from '../util/log.js';
import { ApiCallError, getJson, httpCaller } from './api-caller.js';

const PASSWORD = 'correct horse';
const seen: { path: string; cookie: boolean; basic: boolean }[] = [];
/** A route that reports how it was authorised; the caller's sign-in is what is under test. */
const probe: RouteModule = (app) => {
  app.addHook('onRequest', async (request) => {
    seen.push({ path: request.url.split('?')[0], cookie: request.headers.cookie !== undefined, basic: request.headers.authorization !== undefined });
  });
  app.get('/api/v1/probe', async (request) => ({ q: (request.query as { q?: string }).q ?? null }));
};
// The trace routes are not read here.
const NO_TRACES = {} as TraceRepo;

function api(auth: boolean, ttlSecs = 3600): Api {
  return createApi(
    {
      listen: { host: '127.0.0.1', port: 0 },
      queryTimeoutSecs: 15,
      auth: { enabled: auth, username: 'agent', password_hash: passwordHash, session_ttl_secs: ttlSecs, session_key: Buffer.alloc(32, 7), secure_cookie: false },
    },
    { traces: NO_TRACES, registry: new Registry(), metricRegistries: [], logger: createLogger('silent'), routes: [probe] },
  );
}

let passwordHash = '';
let secured: Api;
let shortSessions: Api;
let open: Api;
const url = (server: Api) => `http://127.0.0.1:${server.port()}`;

before(async () => {
  passwordHash = await hash(PASSWORD);
  secured = api(true);
  shortSessions = api(true, 1);
  open = api(false);
  await Promise.all([secured.start(), shortSessions.start(), open.start()]);
});

after(async () => {
  await Promise.all([secured?.close(), shortSessions?.close(), open?.close()]);
});

test('with credentials it signs in once and reads with the session cookie, never Basic', async () => {
  seen.length = 0;
  const caller = httpCaller({ baseUrl: url(secured), username: 'agent', password: PASSWORD, timeoutMs: 30_000 });
  assert.deepEqual(await Promise.all([getJson(caller, '/api/v1/probe', { q: 'a' }), getJson(caller, '/api/v1/probe', { q: 'b' })]), [{ q: 'a' }, { q: 'b' }]);
  assert.deepEqual(await getJson(caller, '/api/v1/probe', { q: 'c' }), { q: 'c' });
  assert.equal(seen.filter((entry) => entry.path === '/api/v1/auth/login').length, 1);
  const reads = seen.filter((entry) => entry.path === '/api/v1/probe');
  assert.equal(reads.length, 3);
  assert.ok(reads.every((entry) => entry.cookie && !entry.basic));
});

test('a wrong password comes back as the API\'s refusal', async () => {
  const caller = httpCaller({ baseUrl: url(secured), username: 'agent', password: 'wrong', timeoutMs: 30_000 });
  await assert.rejects(getJson(caller, '/api/v1/probe'), (error: unknown) => error instanceof ApiCallError && error.status === 401 && error.message === 'unauthorized');
});

test('an expired session is renewed and the read still answers', async () => {
  seen.length = 0;
  const caller = httpCaller({ baseUrl: url(shortSessions), username: 'agent', password: PASSWORD, timeoutMs: 30_000 });
  const deadline = Date.now() + 30_000;
  // Sessions last 1 s: read until a second sign-in happened, every read answering.
  while (seen.filter((entry) => entry.path === '/api/v1/auth/login').length < 2) {
    assert.ok(Date.now() < deadline, 'the session was never renewed');
    assert.deepEqual(await getJson(caller, '/api/v1/probe', { q: 'x' }), { q: 'x' });
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.deepEqual(await getJson(caller, '/api/v1/probe', { q: 'y' }), { q: 'y' });
});

test('against an API without authentication it reads with no credentials', async () => {
  seen.length = 0;
  const caller = httpCaller({ baseUrl: url(open), username: 'agent', password: PASSWORD, timeoutMs: 30_000 });
  assert.deepEqual(await getJson(caller, '/api/v1/probe', { q: 'z' }), { q: 'z' });
  assert.ok(seen.filter((entry) => entry.path === '/api/v1/probe').every((entry) => !entry.cookie && !entry.basic));
});

test('an unreachable API is a tool error saying so', async () => {
  const caller = httpCaller({ baseUrl: 'http://127.0.0.1:1', timeoutMs: 5_000 });
  await assert.rejects(getJson(caller, '/api/v1/probe'), /svc api unreachable/);
});
