import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { createLogger } from '../util/log.js';
import type { TraceRepo } from './repo.js';
import { createApi, type Api } from './server.js';
import { ASSET_CACHE_CONTROL, INDEX_CACHE_CONTROL, staticRoutes } from './static.js';

const INDEX_HTML = '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/index-abc123.js"></script></body></html>';
const ASSET_JS = 'console.log("app");';

const emptyRepo: TraceRepo = {
  traceSpans: async () => [],
  traceLogs: async () => [],
  traceStoryId: async () => null,
  services: async () => ['checkout'],
};

/** The real API with the static module plugged in the way the CLI does, over a temp dist folder. */
function buildApi(distDir: string): Api {
  const registry = new Registry();
  return createApi(
    { listen: { host: '127.0.0.1', port: 0 }, queryTimeoutSecs: 15 },
    { traces: emptyRepo, registry, metricRegistries: [registry], logger: createLogger('error'), routes: [staticRoutes(distDir)] },
  );
}

describe('static app serving', () => {
  let distDir: string;
  let api: Api;

  before(async () => {
    distDir = await mkdtemp(path.join(tmpdir(), 'svc-web-dist-'));
    await mkdir(path.join(distDir, 'assets'));
    await writeFile(path.join(distDir, 'index.html'), INDEX_HTML);
    await writeFile(path.join(distDir, 'assets', 'index-abc123.js'), ASSET_JS);
    await writeFile(path.join(distDir, 'assets', 'index-abc123.css'), 'body{}');
    await writeFile(path.join(distDir, 'secret.txt'), 'outside assets');
    api = buildApi(distDir);
    await api.app.ready();
  });
  after(async () => {
    await api.close();
    await rm(distDir, { recursive: true, force: true });
  });

  it('serves a hashed asset with the immutable cache header and its content type', async () => {
    const response = await api.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['cache-control'], ASSET_CACHE_CONTROL);
    assert.equal(response.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.match(String(response.headers['content-type']), /^text\/javascript/);
    assert.equal(response.body, ASSET_JS);
    const css = await api.app.inject({ method: 'GET', url: '/assets/index-abc123.css' });
    assert.match(String(css.headers['content-type']), /^text\/css/);
  });

  it('answers HEAD for an asset with headers and no body', async () => {
    const response = await api.app.inject({ method: 'HEAD', url: '/assets/index-abc123.js' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['cache-control'], ASSET_CACHE_CONTROL);
    assert.equal(response.body, '');
  });

  it('answers a missing asset with a JSON 404, not the app', async () => {
    for (const url of ['/assets/missing-123.js', '/assets/', '/assets/..%2Fsecret.txt']) {
      const response = await api.app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 404, url);
      assert.match(String(response.headers['content-type']), /^application\/json/, url);
      assert.deepEqual(response.json(), { error: 'not found' }, url);
    }
  });

  it('never serves a file outside the assets folder', async () => {
    for (const url of ['/assets/..%2Fsecret.txt', '/assets/%2E%2E/secret.txt', '/assets/../secret.txt', '/assets/..%2F..%2Fetc%2Fpasswd']) {
      const response = await api.app.inject({ method: 'GET', url });
      assert.notEqual(response.body, 'outside assets', url);
      assert.notEqual(response.headers['cache-control'], ASSET_CACHE_CONTROL, url);
    }
  });

  it('returns index.html with no-cache for the root, every client route and unknown client paths', async () => {
    for (const url of [
      '/',
      '/stories/0af7651916cd43dd8448eb211c80319c',
      '/traces?since=1h',
      '/logs',
      '/logs/templates/123',
      '/map?infra=true',
      '/pipeline?since=6h',
      '/no/such/page',
      '/assetsx',
    ]) {
      const response = await api.app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 200, url);
      assert.equal(response.headers['cache-control'], INDEX_CACHE_CONTROL, url);
      assert.match(String(response.headers['content-type']), /^text\/html/, url);
      assert.equal(response.body, INDEX_HTML, url);
    }
  });

  it('leaves /login to the auth module (with authentication off it redirects to /)', async () => {
    const response = await api.app.inject({ method: 'GET', url: '/login?next=%2Fmap' });
    assert.equal(response.statusCode, 302);
    assert.equal(response.headers.location, '/');
  });

  it('answers HEAD for a client route like GET', async () => {
    const response = await api.app.inject({ method: 'HEAD', url: '/traces' });
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers['cache-control'], 'no-cache');
    assert.match(String(response.headers['content-type']), /^text\/html/);
  });

  it('keeps unknown /api/ routes as the JSON 404 of the API', async () => {
    for (const url of ['/api/v1/nope', '/api/', '/api', '/api/v2/story-groups?since=1h']) {
      const response = await api.app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 404, url);
      assert.match(String(response.headers['content-type']), /^application\/json/, url);
      assert.deepEqual(response.json(), { error: 'not found' }, url);
    }
  });

  it('leaves existing API and plain routes to their handlers', async () => {
    const services = await api.app.inject({ method: 'GET', url: '/api/v1/services' });
    assert.equal(services.statusCode, 200);
    assert.deepEqual(services.json(), ['checkout']);
    const trace = await api.app.inject({ method: 'GET', url: '/api/v1/traces/0af7651916cd43dd8448eb211c80319c' });
    assert.deepEqual(trace.json(), { error: 'not found' });
    const health = await api.app.inject({ method: 'GET', url: '/healthz' });
    assert.equal(health.body, 'ok');
  });

  it('does not serve the app for other methods', async () => {
    const response = await api.app.inject({ method: 'POST', url: '/traces', payload: {} });
    assert.equal(response.statusCode, 404);
    assert.deepEqual(response.json(), { error: 'not found' });
  });
});

describe('static app serving without a build', () => {
  it('says how to build the app instead of failing silently', async () => {
    const distDir = await mkdtemp(path.join(tmpdir(), 'svc-web-empty-'));
    const api = buildApi(distDir);
    try {
      const response = await api.app.inject({ method: 'GET', url: '/' });
      assert.equal(response.statusCode, 503);
      assert.match(response.body, /npm run build/);
      const asset = await api.app.inject({ method: 'GET', url: '/assets/index.js' });
      assert.deepEqual(asset.json(), { error: 'not found' });
    } finally {
      await api.close();
      await rm(distDir, { recursive: true, force: true });
    }
  });
});
