import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LogRow } from '../model/signals.js';
import { analyzeTrace, type TraceAnalysis } from './analyze.js';
import type { EndpointBaseline } from './baseline.js';
import { atMs, DEFAULT_THRESHOLDS, exceptionEvent, log, ms, span, spanId, type SpanSpec } from './fixtures.test-support.js';

function analyze(specs: SpanSpec[], options: { logs?: LogRow[]; truncated?: boolean; baseline?: EndpointBaseline | null } = {}): TraceAnalysis {
  const result = analyzeTrace({
    spans: specs.map(span),
    logs: options.logs ?? [],
    truncated: options.truncated ?? false,
    baseline: options.baseline ?? null,
    thresholds: DEFAULT_THRESHOLDS,
  });
  assert.ok(result !== null);
  return result;
}

function trusted(p99Ms: number, ops: [string, number, number][] = []): EndpointBaseline {
  return {
    trace_count: 100,
    trusted: true,
    p50_ns: ms(p99Ms / 2),
    p99_ns: ms(p99Ms),
    outlier_cap_ns: ms(p99Ms * 5),
    ops: new Map(ops.map(([op, presence, p95Ms]) => [op, { presence, p95_ns: ms(p95Ms) }])),
  };
}

/** checkout -> cart -> payments -> payments(db client), the db call failing first. */
const failingTrace: SpanSpec[] = [
  { id: 'r', service: 'checkout', name: 'POST /orders', kind: 'server', status: 'error', start: 0, end: 500 },
  { id: 'c', parent: 'r', service: 'checkout', name: 'call cart', kind: 'client', start: 10, end: 200 },
  { id: 'cs', parent: 'c', service: 'cart', name: 'GET cart', kind: 'server', start: 12, end: 190 },
  { id: 'p', parent: 'r', service: 'checkout', name: 'call payments', kind: 'client', status: 'error', start: 210, end: 480 },
  { id: 'ps', parent: 'p', service: 'payments', name: 'charge', kind: 'server', status: 'error', start: 215, end: 470 },
  { id: 'pi', parent: 'ps', service: 'payments', name: 'validate', kind: 'internal', start: 216, end: 230 },
  {
    id: 'db',
    parent: 'ps',
    service: 'payments',
    name: 'INSERT charge',
    kind: 'client',
    status: 'error',
    message: 'deadlock 4711 detected',
    start: 240,
    end: 300,
    attrs: [['server.address', 'pg-main']],
  },
  { id: 'late', parent: 'cs', service: 'cart', name: 'cache set', kind: 'client', status: 'error', message: 'cache down', start: 150, end: 320 },
  { id: 'early', parent: 'cs', service: 'cart', name: 'cache get', kind: 'client', status: 'error', message: 'cache miss storm', start: 20, end: 310 },
];

test('analyze: a trace with logs and no spans produces nothing', () => {
  assert.equal(
    analyzeTrace({ spans: [], logs: [log({ severity: 17, body: 'x', at: 0 })], truncated: false, baseline: null, thresholds: DEFAULT_THRESHOLDS }),
    null,
  );
});

test('analyze: error story root cause is the failing span without failing descendants that ended first', () => {
  const story = analyze(failingTrace).story;
  assert.ok(story !== null);
  assert.equal(story.kind, 'error');
  assert.deepEqual(story.root_cause, {
    service: 'payments',
    span_name: 'INSERT charge',
    span_kind: 'client',
    span_id: spanId('db'),
    message: 'deadlock 4711 detected',
    exception_type: '',
  });
});

test('analyze: also_failed holds the other failing leaves, earliest end first', () => {
  const story = analyze(failingTrace).story;
  assert.deepEqual(story?.also_failed, [
    { span_id: spanId('early'), service: 'cart', span_name: 'cache get', message: 'cache miss storm', end_ns: atMs(310) },
    { span_id: spanId('late'), service: 'cart', span_name: 'cache set', message: 'cache down', end_ns: atMs(320) },
  ]);
});

test('analyze: path_spans run from the root to the root cause and path_services collapse repeats', () => {
  const story = analyze(failingTrace).story;
  assert.deepEqual(
    story?.path_spans.map((s) => s.name),
    ['POST /orders', 'call payments', 'charge', 'INSERT charge'],
  );
  assert.deepEqual(story?.path_services, ['checkout', 'payments']);
  assert.deepEqual(story?.path_spans[3], {
    span_id: spanId('db'),
    service: 'payments',
    name: 'INSERT charge',
    kind: 'client',
    status: 'error',
    start_ns: atMs(240),
    duration_ns: ms(60),
  });
});

test('analyze: a client span without children reads as an unreachable peer', () => {
  const story = analyze(failingTrace).story;
  assert.equal(story?.summary, 'payments could not reach pg-main in "INSERT charge": deadlock 4711 detected');
});

test('analyze: a client span with children uses the plain error form', () => {
  const story = analyze([
    { id: 'r', service: 'web', name: 'GET /', kind: 'server', start: 0, end: 100 },
    { id: 'c', parent: 'r', service: 'web', name: 'call api', kind: 'client', status: 'error', message: 'bad gateway', start: 10, end: 90 },
    { id: 's', parent: 'c', service: 'api', name: 'handle', kind: 'server', start: 12, end: 88 },
  ]).story;
  assert.equal(story?.summary, 'web failed in "call api": bad gateway');
});

test('analyze: a failing server span uses the plain error form with the exception message', () => {
  const story = analyze([
    { id: 'r', service: 'api', name: 'GET /x', kind: 'server', events: [exceptionEvent(5, 'division by zero', 'ZeroDivisionError')], start: 0, end: 10 },
  ]).story;
  assert.equal(story?.summary, 'api failed in "GET /x": division by zero');
  assert.equal(story?.root_cause.exception_type, 'ZeroDivisionError');
  assert.equal(story?.root_cause.span_kind, 'server');
});

test('analyze: an attached ERROR log alone makes an error story with the log as message', () => {
  const result = analyze([{ id: 'r', service: 'api', name: 'GET /x', start: 0, end: 10 }], {
    logs: [log({ span: 'r', severity: 17, body: 'payment provider returned 502', at: 3 })],
  });
  assert.equal(result.trace.is_error, true);
  assert.equal(result.story?.root_cause.message, 'payment provider returned 502');
});

test('analyze: logs are capped at 50, most severe first, earliest first within a severity', () => {
  const logs: LogRow[] = [];
  for (let i = 0; i < 60; i++) logs.push(log({ span: 'r', severity: 9, body: `info ${i}`, at: i }, i));
  logs.push(log({ span: 'r', severity: 17, body: 'error b', at: 50 }, 100));
  logs.push(log({ span: 'r', severity: 21, body: 'fatal', at: 70 }, 101));
  logs.push(log({ span: 'r', severity: 17, body: 'error a', at: 40 }, 102));
  const story = analyze([{ id: 'r', start: 0, end: 100 }], { logs }).story;
  assert.equal(story?.logs.length, 50);
  assert.deepEqual(
    story?.logs.slice(0, 5).map((l) => l.body),
    ['fatal', 'error a', 'error b', 'info 0', 'info 1'],
  );
  assert.deepEqual(Object.keys(story?.logs[0] ?? {}), ['ts_ns', 'service', 'span_id', 'severity_number', 'severity_text', 'body']);
});

const flagCases: { name: string; specs: SpanSpec[]; truncated: boolean; flags: string[] }[] = [
  { name: 'a whole trace has no flags', specs: [{ id: 'r', status: 'error', start: 0, end: 1 }], truncated: false, flags: [] },
  { name: 'truncated input sets truncated', specs: [{ id: 'r', status: 'error', start: 0, end: 1 }], truncated: true, flags: ['truncated'] },
  {
    name: 'a missing parent sets incomplete',
    specs: [
      { id: 'r', start: 0, end: 10 },
      { id: 'o', parent: 'gone', status: 'error', start: 1, end: 2 },
    ],
    truncated: false,
    flags: ['incomplete'],
  },
  {
    name: 'a cycle plus truncation sets both',
    specs: [
      { id: 'r', start: 0, end: 10 },
      { id: 'a', parent: 'b', status: 'error', start: 1, end: 2 },
      { id: 'b', parent: 'a', start: 1, end: 3 },
    ],
    truncated: true,
    flags: ['incomplete', 'truncated'],
  },
];

for (const c of flagCases) {
  test(`analyze flags: ${c.name}`, () => assert.deepEqual(analyze(c.specs, { truncated: c.truncated }).story?.flags, c.flags));
}

test('analyze: an orphan failure is reached through the endpoint root in path_spans', () => {
  const story = analyze([
    { id: 'r', service: 'edge', name: 'GET /a', start: 0, end: 10 },
    { id: 'o', parent: 'gone', service: 'deep', name: 'work', status: 'error', start: 1, end: 2 },
  ]).story;
  assert.deepEqual(story?.path_services, ['edge', 'deep']);
});

const slowTrace = (durationMs: number): SpanSpec[] => [
  { id: 'r', service: 'shop', name: 'GET', kind: 'server', attrs: [['http.route', '/orders/:id']], start: 0, end: durationMs },
  { id: 'q', parent: 'r', service: 'db', name: 'SELECT orders', kind: 'client', start: 10, end: durationMs - 10 },
];

const slowCases: { name: string; durationMs: number; baseline: EndpointBaseline | null; kind: string | null }[] = [
  { name: 'above max(p99 x 1.5, p99 + 100 ms) is slow (p99 310 ms: limit 465 ms)', durationMs: 466, baseline: trusted(310), kind: 'slow' },
  { name: 'exactly at the limit is not slow', durationMs: 465, baseline: trusted(310), kind: null },
  { name: 'the margin rules a short p99 (p99 100 ms: limit 200 ms)', durationMs: 199, baseline: trusted(100), kind: null },
  { name: 'without a baseline nothing is slow', durationMs: 10_000, baseline: null, kind: null },
  { name: 'an untrusted baseline flags nothing', durationMs: 10_000, baseline: { ...trusted(310), trusted: false }, kind: null },
];

for (const c of slowCases) {
  test(`analyze slow: ${c.name}`, () => assert.equal(analyze(slowTrace(c.durationMs), { baseline: c.baseline }).story?.kind ?? null, c.kind));
}

test('analyze: a slow story blames the span holding most critical-path time and says so', () => {
  const story = analyze(slowTrace(2400), { baseline: trusted(310) }).story;
  assert.ok(story !== null);
  assert.equal(story.endpoint_name, 'GET /orders/:id');
  assert.deepEqual(
    { service: story.root_cause.service, span: story.root_cause.span_name, message: story.root_cause.message },
    { service: 'db', span: 'SELECT orders', message: 'slow' },
  );
  assert.equal(story.summary, 'GET /orders/:id (shop) took 2.4 s against a p99 of 310 ms; db "SELECT orders" held 2.38 s of the critical path');
  assert.deepEqual(
    story.critical_path.top.map((t) => t.name),
    ['SELECT orders', 'GET'],
  );
  assert.deepEqual(story.also_failed, []);
});

test('analyze: an error span wins over slowness', () => {
  const specs = slowTrace(2400);
  const second = specs[1];
  assert.ok(second !== undefined);
  specs[1] = { ...second, status: 'error' };
  assert.equal(analyze(specs, { baseline: trusted(310) }).story?.kind, 'error');
});

test('analyze: baseline_diff is filled from a trusted baseline and null without one', () => {
  const base = trusted(310, [
    ['shop: GET', 1, 300],
    ['db: SELECT orders', 1, 100],
    ['auth: check', 0.99, 5],
  ]);
  const story = analyze(slowTrace(2400), { baseline: base }).story;
  assert.deepEqual(story?.baseline_diff, {
    new_ops: [],
    missing_ops: ['auth: check'],
    slower_ops: [
      { op: 'db: SELECT orders', duration_ns: ms(2380), baseline_p95_ns: ms(100) },
      { op: 'shop: GET', duration_ns: ms(2400), baseline_p95_ns: ms(300) },
    ],
  });
  assert.equal(analyze(failingTrace).story?.baseline_diff, null);
});

test('analyze: the same failure from two endpoints gives two fingerprints; numbers in the message give one', () => {
  const fp = (rootName: string, message: string) =>
    analyze([
      { id: 'r', service: 'web', name: rootName, start: 0, end: 10 },
      { id: 'd', parent: 'r', service: 'db', name: 'query', status: 'error', message, start: 1, end: 5 },
    ]).story?.fingerprint;
  assert.equal(fp('GET /a', 'timeout after 3000 ms'), fp('GET /a', 'timeout after 2999 ms'));
  assert.notEqual(fp('GET /a', 'timeout after 3000 ms'), fp('GET /b', 'timeout after 3000 ms'));
});

test('analyze: the trace summary, edges and ops', () => {
  const result = analyze(failingTrace);
  assert.deepEqual(result.trace, {
    trace_id: span({ id: 'x', start: 0, end: 0 }).traceId,
    ts_ns: atMs(0),
    endpoint_service: 'checkout',
    endpoint_name: 'POST /orders',
    duration_ns: ms(500),
    is_error: true,
    span_count: 9,
    services: ['cart', 'checkout', 'payments'],
  });
  assert.deepEqual(
    result.edges.map((e) => [e.parent, e.child, e.calls, e.errors, e.total_duration_ns]),
    [
      ['checkout', 'cart', 1, 0, ms(178)],
      ['checkout', 'payments', 1, 1, ms(255)],
    ],
  );
  assert.equal(result.ops.length, 9);
  assert.deepEqual(result.baselineSample, { duration_ns: ms(500), is_error: true, ops: result.ops });
});

test('analyze: ops sum the durations of repeated operations', () => {
  const result = analyze([
    { id: 'r', service: 'api', name: 'GET /list', start: 0, end: 100 },
    { id: 'a', parent: 'r', service: 'db', name: 'SELECT', start: 1, end: 11 },
    { id: 'b', parent: 'r', service: 'db', name: 'SELECT', start: 12, end: 22 },
  ]);
  assert.deepEqual(result.ops, [
    { op: 'api: GET /list', duration_ns: ms(100) },
    { op: 'db: SELECT', duration_ns: ms(20) },
  ]);
  assert.equal(result.story, null);
});

test('analyze: the stories-topic record carries the full root-cause span and top contributors', () => {
  const result = analyze(failingTrace);
  const record = result.storyRecord;
  assert.ok(record !== null && result.story !== null);
  assert.equal(record.root_cause.span_id, spanId('db'));
  assert.equal(record.root_cause.parent_span_id, spanId('ps'));
  assert.equal(record.root_cause.status_message, 'deadlock 4711 detected');
  assert.deepEqual(record.root_cause.attrs, [['server.address', 'pg-main']]);
  assert.equal(record.root_cause.self_ns, ms(60));
  assert.deepEqual(record.critical_path, result.story.critical_path.segments);
  assert.deepEqual(record.top_contributors, result.story.critical_path.top);
  assert.equal(result.rootCauseSpan?.spanId, spanId('db'));
  assert.equal(record.fingerprint, result.story.fingerprint);
});

test('analyze: story timestamps stay exact above 2^53', () => {
  const story = analyze(failingTrace).story;
  assert.equal(story?.ts_ns, 1_763_800_000_000_000_000n);
  assert.equal(typeof story?.critical_path.segments[0]?.start_ns, 'bigint');
});

test('the baseline may be given as a lookup by endpoint key, asked once with the derived endpoint', () => {
  const asked: string[] = [];
  const result = analyzeTrace({
    spans: [span({ id: 'r', service: 'checkout', name: 'POST /orders', kind: 'server', start: 0, end: 900 })],
    logs: [],
    truncated: false,
    baseline: (key) => {
      asked.push(key);
      return trusted(310);
    },
    thresholds: DEFAULT_THRESHOLDS,
  });
  assert.deepEqual(asked, ['checkout\u0000POST /orders']);
  assert.equal(result?.story?.kind, 'slow');
  assert.ok(result?.story?.baseline_diff !== null);
  const none = analyzeTrace({
    spans: [span({ id: 'r', start: 0, end: 900 })],
    logs: [],
    truncated: false,
    baseline: () => null,
    thresholds: DEFAULT_THRESHOLDS,
  });
  assert.equal(none?.story, null);
});
