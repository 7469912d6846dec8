import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { hash } from '@node-rs/argon2';
import { Registry } from 'prom-client';
import type { AuthSettings } from '../../config/settings.js';
import { createLogger } from '../../util/log.js';
import { createApi } from '../server.js';
import type { TraceRepo } from '../repo.js';
import { clientKey } from './attempt-limiter.js';
import { signSession, verifySession } from './session-token.js';

// Storage is not what these tests exercise: the repo answers with empty data.
const emptyRepo: TraceRepo = {
  traceSpans: async () => [],
  traceLogs: async () => [],
  traceStoryId: async () => null,
  services: async () => ['checkout'],
};

let passwordHash = '';
const key = Buffer.alloc(32, 7);

before(async () => {
  passwordHash = await hash('s3cret pass', { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 });
});

function app(overrides: Partial<AuthSettings> = {}, nowMs?: () => number) {
  const auth: AuthSettings = {
    enabled: true,
    username: 'admin',
    password_hash: passwordHash,
    session_ttl_secs: 3600,
    session_key: key,
    secure_cookie: false,
    ...overrides,
  };
  const api = createApi(
    { listen: { host: '127.0.0.1', port: 0 }, queryTimeoutSecs: 15, auth },
    { traces: emptyRepo, registry: new Registry(), metricRegistries: [], logger: createLogger('silent') },
  );
  if (nowMs !== undefined) void nowMs;
  return api.app;
}

const json = { 'content-type': 'application/json' };
const basic = (user: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}` });

test('without a session every /api/ route, unknown ones included, is 401; open routes stay open', async () => {
  const server = app();
  for (const url of ['/api/v1/services', '/api/v1/nope', '/api/v1/traces/' + 'a'.repeat(32)]) {
    const response = await server.inject({ method: 'GET', url });
    assert.equal(response.statusCode, 401, url);
    assert.deepEqual(response.json(), { error: 'unauthorized' });
  }
  assert.equal((await server.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
  assert.equal((await server.inject({ method: 'GET', url: '/metrics' })).statusCode, 200);
  assert.equal((await server.inject({ method: 'GET', url: '/api/v1/auth/me' })).statusCode, 401);
});

test('login sets the signed session cookie with the contract attributes; me and data routes accept it', async () => {
  const server = app({ secure_cookie: true });
  const login = await server.inject({ method: 'POST', url: '/api/v1/auth/login', headers: json, payload: { username: 'admin', password: 's3cret pass' } });
  assert.equal(login.statusCode, 204);
  const setCookie = String(login.headers['set-cookie']);
  assert.match(setCookie, /^svc_session=[^;]+; Max-Age=3600; Path=\/; HttpOnly; SameSite=Strict; Secure$/);
  const cookie = setCookie.split(';')[0];
  const me = await server.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { cookie } });
  assert.deepEqual(me.json(), { username: 'admin' });
  const services = await server.inject({ method: 'GET', url: '/api/v1/services', headers: { cookie } });
  assert.deepEqual(services.json(), ['checkout']);
  const head = await server.inject({ method: 'HEAD', url: '/api/v1/services', headers: { cookie } });
  assert.equal(head.statusCode, 200);
});

test('a wrong login is 401; without the JSON content type 415', async () => {
  const server = app();
  const wrong = await server.inject({ method: 'POST', url: '/api/v1/auth/login', headers: json, payload: { username: 'admin', password: 'nope' } });
  assert.equal(wrong.statusCode, 401);
  assert.deepEqual(wrong.json(), { error: 'unauthorized' });
  const wrongUser = await server.inject({ method: 'POST', url: '/api/v1/auth/login', headers: json, payload: { username: 'root', password: 's3cret pass' } });
  assert.equal(wrongUser.statusCode, 401);
  const form = await server.inject({
    method: 'POST',
    url: '/api/v1/auth/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'username=admin&password=x',
  });
  assert.equal(form.statusCode, 415);
  assert.deepEqual(form.json(), { error: 'content type must be application/json' });
  const none = await server.inject({ method: 'POST', url: '/api/v1/auth/logout' });
  assert.equal(none.statusCode, 415);
});

test('Basic credentials work on data routes but not on me', async () => {
  const server = app();
  assert.equal((await server.inject({ method: 'GET', url: '/api/v1/services', headers: basic('admin', 's3cret pass') })).statusCode, 200);
  assert.equal((await server.inject({ method: 'GET', url: '/api/v1/services', headers: basic('admin', 'bad') })).statusCode, 401);
  assert.equal((await server.inject({ method: 'GET', url: '/api/v1/auth/me', headers: basic('admin', 's3cret pass') })).statusCode, 401);
});

test('past 5 attempts per 5 minutes login and Basic get 429 with Retry-After, even with the right password', async () => {
  const server = app();
  for (let i = 0; i < 5; i++) {
    const attempt =
      i % 2 === 0
        ? await server.inject({ method: 'POST', url: '/api/v1/auth/login', headers: json, payload: { username: 'admin', password: 'bad' } })
        : await server.inject({ method: 'GET', url: '/api/v1/services', headers: basic('admin', 'bad') });
    assert.equal(attempt.statusCode, 401, `attempt ${i + 1}`);
  }
  const blocked = await server.inject({ method: 'POST', url: '/api/v1/auth/login', headers: json, payload: { username: 'admin', password: 's3cret pass' } });
  assert.equal(blocked.statusCode, 429);
  assert.deepEqual(blocked.json(), { error: 'too many attempts' });
  assert.equal(blocked.headers['svc-error-code'], 'too_many_attempts');
  assert.ok(Number(blocked.headers['retry-after']) > 0);
  const blockedBasic = await server.inject({ method: 'GET', url: '/api/v1/services', headers: basic('admin', 's3cret pass') });
  assert.equal(blockedBasic.statusCode, 429);
  assert.ok(Number(blockedBasic.headers['retry-after']) > 0);
});

test('a success clears the count', async () => {
  const server = app();
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < 4; i++)
      await server.inject({ method: 'POST', url: '/api/v1/auth/login', headers: json, payload: { username: 'admin', password: 'bad' } });
    const ok = await server.inject({ method: 'POST', url: '/api/v1/auth/login', headers: json, payload: { username: 'admin', password: 's3cret pass' } });
    assert.equal(ok.statusCode, 204, `round ${round}`);
  }
});

test('logout clears the cookie but a copied token stays valid (no server state)', async () => {
  const server = app();
  const login = await server.inject({ method: 'POST', url: '/api/v1/auth/login', headers: json, payload: { username: 'admin', password: 's3cret pass' } });
  const cookie = String(login.headers['set-cookie']).split(';')[0];
  const logout = await server.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: json });
  assert.equal(logout.statusCode, 204);
  assert.match(String(logout.headers['set-cookie']), /^svc_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Strict$/);
  assert.equal((await server.inject({ method: 'GET', url: '/api/v1/auth/me', headers: { cookie } })).statusCode, 200);
});

test('sessions are not sliding and die with a changed key; tampering is refused', () => {
  const token = signSession('admin', 1_000, key);
  assert.equal(verifySession(token, key, 999), 'admin');
  assert.equal(verifySession(token, key, 1_000), null, 'expired at session_ttl after sign-in');
  assert.equal(verifySession(token, Buffer.alloc(32, 8), 999), null, 'another key');
  const [payload, mac] = token.split('.');
  const forged = Buffer.from('admin|99999').toString('base64url');
  assert.equal(verifySession(`${forged}.${mac}`, key, 999), null);
  assert.equal(verifySession(`${payload}.`, key, 999), null);
  assert.equal(verifySession('garbage', key, 999), null);
  // Only the canonical encoding of the signature passes: no padding, no trailing junk, no other alphabet.
  for (const variant of [`${mac}=`, `${mac}==`, `${mac}!!`, `${mac}.`, `${mac} `, ` ${mac}`, mac.replace(/-/g, '+').replace(/_/g, '/')]) {
    if (variant === mac) continue;
    assert.equal(verifySession(`${payload}.${variant}`, key, 999), null, `signature ${JSON.stringify(variant)}`);
  }
});

test('with authentication off the auth routes are 404 and /login redirects to /', async () => {
  const server = app({ enabled: false });
  assert.equal((await server.inject({ method: 'GET', url: '/api/v1/auth/me' })).statusCode, 404);
  assert.equal((await server.inject({ method: 'POST', url: '/api/v1/auth/login', headers: json, payload: {} })).statusCode, 404);
  const login = await server.inject({ method: 'GET', url: '/login?next=/map' });
  assert.equal(login.statusCode, 302);
  assert.equal(login.headers.location, '/');
  assert.equal((await server.inject({ method: 'GET', url: '/api/v1/services' })).statusCode, 200);
});

test('the limiter groups IPv6 clients by /64 and ignores nothing but the socket address', () => {
  assert.equal(clientKey('2001:db8:1:2:aaaa::1'), clientKey('2001:db8:1:2:bbbb::9'));
  assert.notEqual(clientKey('2001:db8:1:2::1'), clientKey('2001:db8:1:3::1'));
  assert.equal(clientKey('::ffff:10.0.0.1'), '10.0.0.1');
  assert.equal(clientKey('127.0.0.1'), '127.0.0.1');
});
