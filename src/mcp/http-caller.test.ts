/**
 * Reads under a session against the real API server with authentication on: `svc mcp`'s HTTP
 * caller and /mcp's in-process reads sign in once and read with the session cookie; an expired
 * session is renewed, a refusal is passed on, and an API without authentication is read without
 * credentials.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { hash } from '@node-rs/argon2';
import { Registry } from 'prom-client';
import { createApi, type Api, type RouteModule } from '../api/server.js';
import type { TraceRepo } from '../api/repo.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createLogger } from '../util/log.js';
import { mcpRoutes } from './http-route.js';
import { ApiCallError, getJson } from './api-caller.js';
import { httpCaller } from './http-caller.js';

const PASSWORD = 'correct horse';
const seen: { path: string; cookie: boolean; basic: boolean }[] = [];
/** A route that reports how it was authorised; the caller's sign-in is what is under test. */
const probe: RouteModule = (app) => {
  app.addHook('onRequest', async (request) => {
    seen.push({ path: request.url.split('?', 1)[0] ?? '', cookie: request.headers.cookie !== undefined, basic: request.headers.authorization !== undefined });
  });
  app.get('/api/v1/probe', async (request) => ({ q: (request.query as { q?: string }).q ?? null }));
};
// Stands in for storage: only the service list is read here (by list_services); what is under test is how reads are authorised.
const SERVICES_ONLY = { services: async () => ['svc-a', 'svc-b'] } as unknown as TraceRepo;

function api(auth: boolean, ttlSecs = 3600): Api {
  return createApi(
    {
      listen: { host: '127.0.0.1', port: 0 },
      queryTimeoutSecs: 15,
      auth: {
        enabled: auth,
        username: 'agent',
        password_hash: passwordHash,
        session_ttl_secs: ttlSecs,
        session_key: Buffer.alloc(32, 7),
        secure_cookie: false,
      },
    },
    { traces: SERVICES_ONLY, registry: new Registry(), metricRegistries: [], logger: createLogger('silent'), routes: [probe, mcpRoutes()] },
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

test("a wrong password comes back as the API's refusal", async () => {
  const caller = httpCaller({ baseUrl: url(secured), username: 'agent', password: 'wrong', timeoutMs: 30_000 });
  await assert.rejects(
    getJson(caller, '/api/v1/probe'),
    (error: unknown) => error instanceof ApiCallError && error.status === 401 && error.message === 'unauthorized',
  );
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

test('/mcp reads under one session per credential: the password is checked for /mcp, never again per read', async () => {
  const basic = `Basic ${Buffer.from(`agent:${PASSWORD}`).toString('base64')}`;
  const client = new Client({ name: 'session-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url(secured)}/mcp`), { requestInit: { headers: { authorization: basic } } }));
  try {
    seen.length = 0;
    for (let i = 0; i < 3; i++) {
      const result = (await client.callTool({ name: 'list_services', arguments: {} })) as CallToolResult;
      assert.deepEqual(result.structuredContent, { total: 2, services: ['svc-a', 'svc-b'] });
    }
    const reads = seen.filter((entry) => entry.path === '/api/v1/services');
    assert.equal(reads.length, 3);
    assert.ok(
      reads.every((entry) => entry.cookie && !entry.basic),
      'reads carry the session, not the password',
    );
    assert.equal(seen.filter((entry) => entry.path === '/api/v1/auth/login').length, 1, 'signed in once, on the first read');
    assert.ok(seen.filter((entry) => entry.path === '/mcp').every((entry) => entry.basic));
  } finally {
    await client.close();
  }
  const wrong = new Client({ name: 'session-test-wrong', version: '1.0.0' });
  const badBasic = `Basic ${Buffer.from('agent:wrong').toString('base64')}`;
  await assert.rejects(
    wrong.connect(new StreamableHTTPClientTransport(new URL(`${url(secured)}/mcp`), { requestInit: { headers: { authorization: badBasic } } })),
  );
});
