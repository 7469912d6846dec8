/**
 * /mcp with authentication off, in process over real chDB: the SDK client over Streamable HTTP
 * reads a stored story; methods without streams answer 405; a foreign Origin is refused; a read
 * that outlives the API's request bound reaches the agent as the API's `storage timeout`.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createTraceRepo } from '../api/trace-repo.js';
import { createApi, type Api, type RouteModule } from '../api/server.js';
import { createStoryRoutes } from '../api/routes/story-routes.js';
import { hexId, insertStories, nsAt, NOW_MS } from '../api/routes/route-test-app.test-support.js';
import type { Store } from '../model/store.js';
import { createStore } from '../store/create-store.js';
import { migrate } from '../store/migrate.js';
import { createLogger } from '../util/log.js';
import { mcpRoutes } from './http-route.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-mcp-route-'));
let store: Store;
let api: Api;
let url: string;

before(async () => {
  store = await createStore({ clickhouse: { url: '', database: 'svc_mcp' }, embedded: { data_dir: join(dir, 'data') } });
  await migrate(store);
  api = createApi(
    { listen: { host: '127.0.0.1', port: 0 }, queryTimeoutSecs: 15 },
    {
      traces: createTraceRepo(store, 15),
      registry: new Registry(),
      metricRegistries: [],
      logger: createLogger('silent'),
      routes: [createStoryRoutes(store, { nowMs: () => NOW_MS }), mcpRoutes()],
      checkResponses: true,
    },
  );
  await api.start();
  url = `http://127.0.0.1:${api.port()}/mcp`;
  await insertStories(store, [
    {
      storyId: hexId(7),
      fingerprint: '18446744073709551615',
      kind: 'error',
      tsNs: nsAt(-60_000) + 123n,
      durationNs: 2_000_000n,
      endpointService: 'web',
      endpointName: 'GET /x',
      rcService: 'db',
      rcSpanName: 'query',
      summary: 'db failed in "query": boom',
      writtenAtMs: NOW_MS - 60_000,
    },
  ]);
});

after(async () => {
  await api?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

test('with authentication off the SDK client reads a story through /mcp, ids and *_ns exact', async () => {
  const client = new Client({ name: 'route-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    const result = (await client.callTool({ name: 'get_story', arguments: { story_id: hexId(7).toUpperCase() } })) as CallToolResult;
    assert.notEqual(result.isError, true, JSON.stringify(result.content));
    const story = result.structuredContent as Record<string, unknown>;
    assert.equal(story.story_id, hexId(7));
    assert.equal(story.fingerprint, '18446744073709551615');
    assert.equal(story.ts_ns, (nsAt(-60_000) + 123n).toString());
    assert.equal(story.duration_ms, 2);
    assert.deepEqual((story.root_cause as Record<string, unknown>).span_name, 'query');
  } finally {
    await client.close();
  }
});

test("an MCP client's GET and DELETE answer 405; a plain GET is not the endpoint's; another origin is refused", async () => {
  const streamGet = await fetch(url, { headers: { accept: 'text/event-stream' } });
  assert.equal(streamGet.status, 405);
  assert.equal(streamGet.headers.get('allow'), 'POST');
  assert.equal((await fetch(url, { method: 'DELETE' })).status, 405);
  // Without the app in this API, a browser's GET falls through to the JSON 404; with it, to the app.
  assert.equal((await fetch(url, { headers: { accept: 'text/html' } })).status, 404);
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  const foreign = await fetch(url, { method: 'POST', headers: { ...headers, origin: 'http://evil.example' }, body });
  assert.equal(foreign.status, 403);
  const sameOrigin = await fetch(url, { method: 'POST', headers: { ...headers, origin: `http://127.0.0.1:${api.port()}` }, body });
  assert.equal(sameOrigin.status, 200);
});

test("the API's query timeout bounds a tool's reads: past it the agent gets the tool error storage timeout", async () => {
  // A story route that never answers stands in for a read the database does not finish: the
  // request bound (query_timeout_secs + 5 s) of the API's request context must answer for it.
  let reads = 0;
  const stalled: RouteModule = (app) =>
    app.get('/api/v1/stories/:storyId', () => {
      reads++;
      return new Promise(() => undefined);
    });
  const slowApi = createApi(
    { listen: { host: '127.0.0.1', port: 0 }, queryTimeoutSecs: 1 },
    { traces: createTraceRepo(store, 1), registry: new Registry(), metricRegistries: [], logger: createLogger('silent'), routes: [stalled, mcpRoutes()] },
  );
  await slowApi.start();
  const client = new Client({ name: 'route-test-timeout', version: '1.0.0' });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${slowApi.port()}/mcp`)));
    const startedMs = Date.now();
    const result = (await client.callTool({ name: 'get_story', arguments: { story_id: hexId(7) } }, undefined, { timeout: 60_000 })) as CallToolResult;
    assert.equal(result.isError, true);
    assert.deepEqual(result.content, [{ type: 'text', text: 'storage timeout' }]);
    assert.equal(reads, 1);
    assert.ok(Date.now() - startedMs >= 5_000, 'answered by the request bound, not before');
  } finally {
    await client.close();
    await slowApi.close();
  }
});
