/**
 * The Jaeger query API behind the API's own authentication, and an answer held to its bound, over
 * real chDB (the answers themselves are held to real Jaeger's in jaeger-fixtures.e2e.test.ts).
 */

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hash } from '@node-rs/argon2';
import { Registry } from 'prom-client';
import { createTraceRepo } from '../trace-repo.js';
import type { SpanRow } from '../../model/signals.js';
import type { Store } from '../../model/store.js';
import { createStore } from '../../store/create-store.js';
import { migrate } from '../../store/migrate.js';
import { insertSpans } from '../../testing/store-rows.js';
import { createLogger } from '../../util/log.js';
import { createApi, type Api } from '../server.js';
import { createJaegerRoutes } from './routes.js';
import { MAX_ANSWER_SPANS } from './trace-reads.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-jaeger-routes-'));
let store: Store;
let api: Api;
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const GOOD = basic('admin', 's3cret pass');
const NOW_MS = Date.now();
const BIG_TRACE = 'b16b16b16b16b16b16b16b16b16b16b1';

function span(n: number, startNs: bigint): SpanRow {
  return {
    traceId: BIG_TRACE,
    spanId: (n + 1).toString(16).padStart(16, '0'),
    parentSpanId: n === 0 ? '' : '0000000000000001',
    serviceName: 'bulk',
    name: n === 0 ? 'import' : 'row',
    kind: n === 0 ? 'server' : 'internal',
    startNs,
    endNs: startNs + 1_000n,
    status: 'unset',
    statusMessage: '',
    attrs: [],
    resource: [['service.name', 'bulk']],
    events: [],
    scopeName: '',
    scopeVersion: '',
  };
}

describe('the Jaeger query API', () => {
  before(async () => {
    store = await createStore({ clickhouse: { url: '', database: 'svc_jaeger_routes' }, embedded: { data_dir: join(dir, 'data') } });
    await migrate(store);
    const passwordHash = await hash('s3cret pass', { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 });
    api = createApi(
      {
        listen: { host: '127.0.0.1', port: 0 },
        queryTimeoutSecs: 15,
        auth: { enabled: true, username: 'admin', password_hash: passwordHash, session_ttl_secs: 3600, session_key: null, secure_cookie: false },
      },
      {
        traces: createTraceRepo(store, 15),
        registry: new Registry(),
        metricRegistries: [],
        logger: createLogger('silent'),
        routes: [createJaegerRoutes(store, { nowMs: () => NOW_MS })],
        checkResponses: true,
      },
    );
    await api.app.ready();
    // A root and more children than one answer holds, all a microsecond apart.
    const rootNs = BigInt(NOW_MS - 60_000) * 1_000_000n;
    await insertSpans(
      store,
      Array.from({ length: MAX_ANSWER_SPANS + 50 }, (_, n) => span(n, rootNs + BigInt(n) * 1_000n)),
    );
  });
  after(async () => {
    await api?.close();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('asks for the API credentials: none or wrong ones are refused, Basic (as Grafana sends it) is let in', async () => {
    const none = await api.app.inject({ method: 'GET', url: '/jaeger/api/services' });
    assert.equal(none.statusCode, 401);
    const wrong = await api.app.inject({ method: 'GET', url: '/jaeger/api/services', headers: { authorization: basic('admin', 'nope') } });
    assert.equal(wrong.statusCode, 401);
    const good = await api.app.inject({ method: 'GET', url: '/jaeger/api/services', headers: { authorization: GOOD } });
    assert.equal(good.statusCode, 200);
    assert.deepEqual(JSON.parse(good.body), { data: ['bulk'], total: 1, limit: 0, offset: 0, errors: null });
    const trace = await api.app.inject({ method: 'GET', url: `/jaeger/api/traces/${BIG_TRACE}` });
    assert.equal(trace.statusCode, 401, 'a trace is as closed as the service list');
    const v3 = await api.app.inject({ method: 'GET', url: `/jaeger/api/v3/traces/${BIG_TRACE}` });
    assert.equal(v3.statusCode, 401, 'and so is API v3');
  });

  it('answers a trace larger than its bound with the earliest spans up to the bound and a warning saying so', async () => {
    const response = await api.app.inject({ method: 'GET', url: `/jaeger/api/traces/${BIG_TRACE}?start=1&end=2`, headers: { authorization: GOOD } });
    assert.equal(response.statusCode, 200);
    const trace = (JSON.parse(response.body) as { data: { spans: { spanID: string }[]; warnings: string[] | null }[] }).data[0]!;
    assert.equal(trace.spans.length, MAX_ANSWER_SPANS);
    assert.equal(trace.spans[0]!.spanID, '0000000000000001');
    assert.ok(!trace.spans.some((s) => s.spanID === (MAX_ANSWER_SPANS + 1).toString(16).padStart(16, '0')), 'the latest-starting spans are the ones left out');
    assert.deepEqual(trace.warnings, [`this answer holds at most ${MAX_ANSWER_SPANS} spans: later spans were left out`]);
  });

  it('API v3 holds a trace to the same bound', async () => {
    const response = await api.app.inject({ method: 'GET', url: `/jaeger/api/v3/traces/${BIG_TRACE}`, headers: { authorization: GOOD } });
    assert.equal(response.statusCode, 200);
    const body = JSON.parse(response.body) as { result: { resourceSpans: { scopeSpans: { spans: unknown[] }[] }[] } };
    const spans = body.result.resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((ss) => ss.spans));
    assert.equal(spans.length, MAX_ANSWER_SPANS);
  });

  it('a search page shares the same bound', async () => {
    const start = (NOW_MS - 3_600_000) * 1000;
    const response = await api.app.inject({
      method: 'GET',
      url: `/jaeger/api/traces?service=bulk&operation=row&start=${start}`,
      headers: { authorization: GOOD },
    });
    assert.equal(response.statusCode, 200);
    const traces = (JSON.parse(response.body) as { data: { spans: unknown[] }[] }).data;
    assert.equal(traces.length, 1);
    assert.equal(traces[0]!.spans.length, MAX_ANSWER_SPANS);
  });

  it('answers no services as Jaeger does while the store holds none in the last 24 hours', async () => {
    const later = createApi(
      { listen: { host: '127.0.0.1', port: 0 }, queryTimeoutSecs: 15 },
      {
        traces: createTraceRepo(store, 15),
        registry: new Registry(),
        metricRegistries: [],
        logger: createLogger('silent'),
        routes: [createJaegerRoutes(store, { nowMs: () => NOW_MS + 3 * 86_400_000 })],
        checkResponses: true,
      },
    );
    try {
      const response = await later.app.inject({ method: 'GET', url: '/jaeger/api/services' });
      assert.equal(response.statusCode, 200);
      assert.deepEqual(JSON.parse(response.body), { data: null, total: 0, limit: 0, offset: 0, errors: null });
    } finally {
      await later.close();
    }
  });

  it('answers a path under /jaeger that does not exist with 404, not with the web app', async () => {
    const response = await api.app.inject({ method: 'GET', url: '/jaeger/api/nosuch', headers: { authorization: GOOD } });
    assert.equal(response.statusCode, 404);
  });
});
