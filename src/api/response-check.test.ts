/**
 * The declarations hold: every JSON route under /api/v1/ declares its response, the check turns a
 * reply its declaration refuses into a 500, and the trace routes' replies (not covered by the
 * route tests over chDB) match theirs. The route tests run every other route with the check on.
 */

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify, { type RouteOptions } from 'fastify';
import { Registry } from 'prom-client';
import { z } from 'zod';
import { analyzeTrace } from '../analysis/analyze.js';
import { DEFAULT_THRESHOLDS, log as logOf, ms, span as spanOf, type SpanSpec } from '../analysis/fixtures.test-support.js';
import type { LogRow, SpanRow } from '../model/signals.js';
import type { Store } from '../model/store.js';
import { createLogger } from '../util/log.js';
import { parseJsonExact, stringifyJson } from '../util/json.js';
import { declareRoute } from './declared-route.js';
import { createApiMetrics } from './metrics.js';
import type { TraceRepo } from './repo.js';
import { createRequestContext } from './request-context.js';
import { API_ROUTES } from './schemas/routes.js';
import { checkResponses, mismatch } from './response-check.js';
import { configRoutes } from './routes/config.js';
import { createLogRoutes } from './routes/log-routes.js';
import { createPipelineRoutes } from './routes/pipeline-routes.js';
import { createStoryRoutes } from './routes/story-routes.js';
import { registerTraceRoutes } from './routes/traces.js';
import { story } from './schemas/stories.js';
import { createApi } from './server.js';

const unused = async (): Promise<never> => {
  throw new Error('no store in this test');
};
const noStore: Store = { query: unused, exec: unused, insert: unused, insertRaw: unused, database: 'unused', close: async () => undefined };
const noBus = { groups: async () => [], offsets: async () => [] };

const TRACE = '0af7651916cd43dd8448eb211c80319c';
/** Past 2^53: the reply must carry it as an exact integer and the declaration must accept it. */
const START_NS = 1_764_000_000_123_456_789n;

const span: SpanRow = {
  traceId: TRACE,
  spanId: '00000000000000a1',
  parentSpanId: '',
  serviceName: 'checkout',
  name: 'POST /pay',
  kind: 'server',
  startNs: START_NS,
  endNs: START_NS + 5_000_000n,
  status: 'error',
  statusMessage: 'declined',
  attrs: [
    ['http.status_code', 502],
    ['retry', true],
    ['tags', ['a', 'b']],
    ['extra', { k: null }],
  ],
  resource: [['service.name', 'checkout']],
  events: [{ tsNs: START_NS + 1n, name: 'exception', attrs: [['exception.type', 'Declined']] }],
  scopeName: '',
  scopeVersion: '',
};

const log = {
  logId: '42',
  tsNs: START_NS + 2n,
  spanId: span.spanId,
  serviceName: 'checkout',
  severityNumber: 17,
  severityText: 'ERROR',
  body: 'payment declined',
} as LogRow;

const repo: TraceRepo = {
  traceSpans: async (id) => (id === TRACE ? [span] : []),
  traceLogs: async (id) => (id === TRACE ? [log] : []),
  traceStoryId: async () => TRACE,
  services: async () => ['checkout', 'frontend'],
};

describe('declared responses', () => {
  it('every JSON route under /api/v1/ declares its response', async () => {
    const app = Fastify();
    const routes: RouteOptions[] = [];
    app.addHook('onRoute', (route) => {
      routes.push(route);
    });
    const context = createRequestContext(15);
    const registry = new Registry();
    createApiMetrics(registry);
    registerTraceRoutes(app, repo, context, Date.now);
    for (const module of [
      createStoryRoutes(noStore),
      createLogRoutes(noStore),
      createPipelineRoutes({ store: noStore, bus: noBus, registry, logger: createLogger('silent') }),
      configRoutes({ trace_viewer_url: '', grafana_trace_url: '', dashboard_url: '', auth_enabled: false, infra_services: [] }),
    ]) {
      module(app, context);
    }
    await app.ready();
    const api = routes.filter((route) => route.url.startsWith('/api/v1/') && route.method !== 'HEAD');
    const undeclared = api.filter((route) => route.config?.response === undefined).map((route) => `${String(route.method)} ${route.url}`);
    assert.deepEqual(undeclared, []);
    // Every route is in the route map the clients read (schemas/routes.ts), and every entry is registered:
    // a module that stopped registering, or a route the clients cannot name, shows here.
    const registered = api.map((route) => route.url).sort();
    assert.deepEqual(
      registered,
      Object.values(API_ROUTES)
        .map((entry) => entry.url)
        .sort(),
    );
    await app.close();
  });

  it('turns a reply its declaration refuses into a 500 naming the route and the field', async () => {
    const app = Fastify();
    checkResponses(app);
    const declared = z.strictObject({ count: z.number().int(), name: z.string() });
    declareRoute(app, { method: 'GET', url: '/api/v1/good', response: declared }, async () => ({ count: 1, name: 'a' }));
    // The handler's type is the declaration's; a cast stands in for a route that drifted at run time.
    declareRoute(
      app,
      { method: 'GET', url: '/api/v1/drifted', response: declared },
      async () => ({ count: '1', name: 'a' }) as unknown as z.output<typeof declared>,
    );
    declareRoute(
      app,
      { method: 'GET', url: '/api/v1/extra', response: declared },
      async () => ({ count: 1, name: 'a', more: true }) as z.output<typeof declared>,
    );
    const errorsBefore = console.error;
    console.error = () => undefined; // the check prints each mismatch; expected here
    try {
      assert.equal((await app.inject({ method: 'GET', url: '/api/v1/good' })).statusCode, 200);
      const drifted = await app.inject({ method: 'GET', url: '/api/v1/drifted' });
      assert.equal(drifted.statusCode, 500);
      assert.match(drifted.json().error, /^GET \/api\/v1\/drifted answered a body its declared response refuses: .*count/s);
      const extra = await app.inject({ method: 'GET', url: '/api/v1/extra' });
      assert.equal(extra.statusCode, 500);
      assert.match(extra.json().error, /more/);
    } finally {
      console.error = errorsBefore;
      await app.close();
    }
  });

  it('reads exact 64-bit integers and refuses what is not JSON', () => {
    const declared = z.strictObject({ ts_ns: z.bigint() });
    assert.equal(mismatch(declared, `{"ts_ns":${START_NS}}`), undefined);
    assert.match(mismatch(declared, '{"ts_ns":1}') ?? '', /ts_ns/);
    assert.equal(mismatch(declared, '{"ts_ns":'), 'the body is not JSON');
    assert.equal(mismatch(declared, { ts_ns: 1 }), 'the body is not JSON text');
  });

  it('GET /api/v1/traces/{trace_id} and /api/v1/services match their declarations', async () => {
    const api = createApi(
      { listen: { host: '127.0.0.1', port: 0 }, queryTimeoutSecs: 15 },
      { traces: repo, registry: new Registry(), metricRegistries: [], logger: createLogger('silent'), checkResponses: true },
    );
    await api.app.ready();
    try {
      const trace = await api.app.inject({ method: 'GET', url: `/api/v1/traces/${TRACE.toUpperCase()}` });
      assert.equal(trace.statusCode, 200, trace.body);
      const body = parseJsonExact(trace.body) as { trace_id: string; spans: { start_ns: bigint; self_ns: bigint }[]; logs: unknown[] };
      assert.equal(body.trace_id, TRACE);
      assert.equal(body.spans[0]?.start_ns, START_NS);
      assert.equal(body.spans[0]?.self_ns, 5_000_000);
      assert.equal(body.logs.length, 1);
      const services = await api.app.inject({ method: 'GET', url: '/api/v1/services' });
      assert.equal(services.statusCode, 200, services.body);
      assert.deepEqual(services.json(), ['checkout', 'frontend']);
      const bad = await api.app.inject({ method: 'GET', url: '/api/v1/traces/xyz' });
      assert.deepEqual({ status: bad.statusCode, body: bad.json() }, { status: 400, body: { error: 'id must be 32 hexadecimal characters' } });
    } finally {
      await api.close();
    }
  });

  it("the analyzer's stories match the Story declaration (GET /api/v1/stories/{story_id} sends them as stored)", () => {
    // An error story with a log and another failing span; a truncated slow one with a trusted baseline's diff.
    const failingSpans: SpanSpec[] = [
      { id: 'r', service: 'checkout', name: 'POST /orders', kind: 'server', status: 'error', start: 0, end: 500 },
      { id: 'p', parent: 'r', service: 'checkout', name: 'call payments', kind: 'client', status: 'error', start: 10, end: 480 },
      { id: 'db', parent: 'p', service: 'payments', name: 'INSERT charge', kind: 'client', status: 'error', message: 'deadlock', start: 20, end: 300 },
      { id: 'c', parent: 'r', service: 'cart', name: 'cache set', kind: 'client', status: 'error', message: 'cache down', start: 30, end: 320 },
    ];
    const slowSpans: SpanSpec[] = [
      { id: 'r', service: 'shop', name: 'GET', kind: 'server', start: 0, end: 2400 },
      { id: 'q', parent: 'r', service: 'db', name: 'SELECT orders', kind: 'client', start: 10, end: 2390 },
    ];
    const baseline = {
      trace_count: 100,
      trusted: true,
      p50_ns: ms(150),
      p99_ns: ms(310),
      outlier_cap_ns: ms(1550),
      ops: new Map([
        ['db: SELECT orders', { presence: 1, p95_ns: ms(100) }],
        ['auth: check', { presence: 0.99, p95_ns: ms(5) }],
      ]),
    };
    const deadlock = logOf({ span: 'db', severity: 17, body: 'deadlock detected', at: 290, service: 'payments' });
    const failing = analyzeTrace({ spans: failingSpans.map(spanOf), logs: [deadlock], truncated: false, baseline: null, thresholds: DEFAULT_THRESHOLDS });
    const slow = analyzeTrace({ spans: slowSpans.map(spanOf), logs: [], truncated: true, baseline, thresholds: DEFAULT_THRESHOLDS });
    assert.ok(failing?.story && slow?.story, 'both traces make a story');
    assert.ok(
      failing.story.also_failed.length > 0 && failing.story.logs.length > 0 && slow.story.baseline_diff !== null && slow.story.flags.length > 0,
      'the optional parts are filled',
    );
    assert.equal(mismatch(story, stringifyJson(failing.story)), undefined);
    assert.equal(mismatch(story, stringifyJson(slow.story)), undefined);
  });
});
