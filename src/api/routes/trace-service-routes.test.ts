/**
 * Trace search, a trace's log templates, service map, service RED series and search against real
 * chDB: rows inserted straight into the tables, requests through createApi with a fixed clock.
 */

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SpanRow } from '../../model/signals.js';
import { hexId, insertSpans, insertStories, MINUTE_MS, NOW_MS, NOW_SECS, nsAt, openTestApi, spanRow, type TestApi } from './route-test-app.test-support.js';

let t: TestApi;
before(async () => {
  t = await openTestApi('trace-service-routes');
});
after(async () => t?.close());

async function expect400(url: string, message: string): Promise<void> {
  assert.deepEqual(await t.get(url), { status: 400, body: { error: message } }, url);
}

const SUMMARY_COLUMNS = ['trace_id', 'ts_ns', 'duration_ns', 'endpoint_service', 'endpoint_name', 'is_error', 'span_count', 'services', 'story_kind'];

interface Summary {
  traceId: string;
  tsNs: bigint;
  durationMs: number;
  endpointService: string;
  endpointName: string;
  isError: boolean;
  spanCount: number;
  services: string[];
  storyKind: '' | 'error' | 'slow';
}

const T1: Summary = {
  traceId: hexId(0x71),
  tsNs: nsAt(-10 * MINUTE_MS),
  durationMs: 150,
  endpointService: 'frontend',
  endpointName: 'GET /a',
  isError: true,
  spanCount: 5,
  services: ['frontend', 'payments'],
  storyKind: 'error',
};
const T2: Summary = {
  traceId: hexId(0x72),
  tsNs: nsAt(-5 * MINUTE_MS),
  durationMs: 50,
  endpointService: 'backend',
  endpointName: 'GET /b',
  isError: false,
  spanCount: 3,
  services: ['backend'],
  storyKind: '',
};
/** A trace closed in two pieces: the 10-span piece is the one search shows. */
const T3_BIG: Summary = {
  traceId: hexId(0x73),
  tsNs: nsAt(-20 * MINUTE_MS),
  durationMs: 300,
  endpointService: 'frontend',
  endpointName: 'GET /c',
  isError: false,
  spanCount: 10,
  services: ['frontend'],
  storyKind: 'slow',
};
const T3_SMALL: Summary = {
  ...T3_BIG,
  tsNs: nsAt(-3 * MINUTE_MS),
  durationMs: 10,
  spanCount: 2,
  endpointName: 'GET /b',
  endpointService: 'backend',
  storyKind: '',
};
/** Stamped 30 s past now: listed only while the window has no `until`. */
const T4: Summary = {
  traceId: hexId(0x74),
  tsNs: nsAt(30_000),
  durationMs: 20,
  endpointService: 'backend',
  endpointName: 'GET /b',
  isError: false,
  spanCount: 1,
  services: ['backend'],
  storyKind: '',
};
const T5_OLD: Summary = {
  traceId: hexId(0x75),
  tsNs: nsAt(-120 * MINUTE_MS),
  durationMs: 20,
  endpointService: 'backend',
  endpointName: 'GET /b',
  isError: false,
  spanCount: 1,
  services: ['backend'],
  storyKind: '',
};

const row = (s: Summary) => ({
  trace_id: s.traceId,
  ts_ns: s.tsNs,
  endpoint_service: s.endpointService,
  endpoint_name: s.endpointName,
  duration_ns: s.durationMs * 1_000_000,
  is_error: s.isError,
  span_count: s.spanCount,
  story_id: s.storyKind === '' ? null : s.traceId,
  story_kind: s.storyKind === '' ? null : s.storyKind,
});
const ids = (body: { trace_id: string }[]) => body.map((r) => r.trace_id);

describe('GET /api/v1/traces/search', () => {
  before(async () => {
    await t.store.insert(
      'trace_summaries',
      SUMMARY_COLUMNS,
      [T1, T2, T3_BIG, T3_SMALL, T4, T5_OLD].map((s) => [
        s.traceId,
        s.tsNs,
        BigInt(s.durationMs) * 1_000_000n,
        s.endpointService,
        s.endpointName,
        s.isError,
        s.spanCount,
        s.services,
        s.storyKind,
      ]),
    );
  });

  it('lists the window newest first, each trace once in its version with most spans, rows up to 60 s past now', async () => {
    const { status, body } = await t.get('/api/v1/traces/search');
    assert.equal(status, 200);
    assert.deepEqual(body, [row(T4), row(T2), row(T1), row(T3_BIG)]);
  });

  it('stops at until when it is given', async () => {
    assert.deepEqual(ids((await t.get(`/api/v1/traces/search?until=${NOW_SECS}`)).body), [T2.traceId, T1.traceId, T3_BIG.traceId]);
    assert.deepEqual(ids((await t.get(`/api/v1/traces/search?since=3h&until=${NOW_SECS - 3600}`)).body), [T5_OLD.traceId]);
  });

  it('applies every filter', async () => {
    const cases: [string, Summary[]][] = [
      ['service=frontend', [T1, T3_BIG]],
      ['service=payments', []],
      ['service=payments&touched=1', [T1]],
      ['service=backend&touched=0', [T4, T2]],
      ['endpoint=GET%20%2Fb', [T4, T2]],
      ['endpoint=GET%20%2Fc', [T3_BIG]],
      ['min_ms=100', [T1, T3_BIG]],
      ['max_ms=50', [T4, T2]],
      ['max_ms=49', [T4]],
      ['min_ms=100&max_ms=150', [T1]],
      ['min_ms=150&max_ms=150', [T1]],
      ['errors=1', [T1]],
      ['errors=0', [T4, T2, T1, T3_BIG]],
      ['limit=1', [T4]],
      ['limit=2&service=frontend', [T1, T3_BIG]],
      ['since=24h', [T4, T2, T1, T3_BIG, T5_OLD]],
    ];
    for (const [query, expected] of cases) {
      const { status, body } = await t.get(`/api/v1/traces/search?${query}`);
      assert.equal(status, 200, query);
      assert.deepEqual(
        ids(body),
        expected.map((s) => s.traceId),
        query,
      );
    }
  });

  it('answers 400 with the contract messages', async () => {
    await expect400('/api/v1/traces/search?limit=0', 'limit must be within 1..500');
    await expect400('/api/v1/traces/search?limit=501', 'limit must be within 1..500');
    await expect400('/api/v1/traces/search?limit=ten', 'limit must be within 1..500');
    await expect400('/api/v1/traces/search?min_ms=200&max_ms=100', 'min_ms must not exceed max_ms');
    await expect400('/api/v1/traces/search?min_ms=-1', 'min_ms must be a whole number of milliseconds');
    await expect400('/api/v1/traces/search?max_ms=1.5', 'max_ms must be a whole number of milliseconds');
    await expect400(`/api/v1/traces/search?service=${'x'.repeat(201)}`, 'service must be at most 200 characters');
    await expect400(`/api/v1/traces/search?endpoint=${'x'.repeat(201)}`, 'endpoint must be at most 200 characters');
    await expect400('/api/v1/traces/search?touched=yes', 'touched must be 0 or 1');
    await expect400('/api/v1/traces/search?errors=2', 'errors must be 0 or 1');
    await expect400('/api/v1/traces/search?since=8d', 'since must be within 1s..7d');
    await expect400(`/api/v1/traces/search?until=${NOW_SECS + 61}`, 'until must be at most 60s in the future');
    assert.equal((await t.get('/api/v1/traces/search?limit=500')).status, 200);
    assert.equal((await t.get(`/api/v1/traces/search?endpoint=${'x'.repeat(200)}`)).status, 200);
  });
});

describe('GET /api/v1/traces/{trace_id}/log-templates', () => {
  const TRACE = hexId(0x1a);
  const STORY_TRACE = hexId(0x1b);
  const traceStartNs = nsAt(-10 * MINUTE_MS);

  before(async () => {
    await insertSpans(t.store, [spanRow(TRACE, 1, { startNs: traceStartNs, durationMs: 30, serviceName: 'payments', kind: 'internal' })]);
    await t.store.insert(
      'templates',
      ['template_id', 'service', 'template', 'count', 'first_seen_ns', 'last_seen_ns', 'max_severity', 'sample', 'masking_version', 'updated_at_ms'],
      [
        [42n, 'payments', 'payment failed <*>', 10, nsAt(-60 * MINUTE_MS), nsAt(-MINUTE_MS), 17, 'payment failed 12', 1, 1],
        [43n, 'payments', 'retrying <*>', 4, nsAt(-60 * MINUTE_MS), nsAt(-MINUTE_MS), 13, 'retrying 3', 1, 1],
        [18446744073709551615n, 'payments', 'old text', 1, nsAt(-60 * MINUTE_MS), nsAt(-MINUTE_MS), 9, 'x', 1, 1],
        [18446744073709551615n, 'payments', 'big id template', 1, nsAt(-60 * MINUTE_MS), nsAt(-MINUTE_MS), 9, 'x', 1, 2],
      ],
    );
    const hit = (logId: bigint, templateId: bigint, offsetMs: number) => [
      traceStartNs + BigInt(offsetMs) * 1_000_000n,
      templateId,
      'payments',
      logId,
      TRACE,
      '0000000000000001',
      17,
    ];
    await t.store.insert(
      'template_hits',
      ['ts_ns', 'template_id', 'service', 'log_id', 'trace_id', 'span_id', 'severity_number'],
      [
        hit(1001n, 42n, 5),
        hit(1002n, 43n, 6),
        hit(1001n, 42n, 5), // a replayed line: listed once
        hit(18446744073709551614n, 18446744073709551615n, 7),
      ],
    );
    await insertStories(t.store, [
      {
        storyId: STORY_TRACE,
        fingerprint: '7',
        kind: 'error',
        tsNs: nsAt(-9 * MINUTE_MS),
        durationNs: 1n,
        endpointService: 'payments',
        endpointName: 'POST /charge',
        rcService: 'payments',
        rcSpanName: 'charge',
        summary: 's',
        writtenAtMs: 1,
      },
    ]);
    const alert = (id: string, kind: string, templateId: bigint, startedMs: number, lastMs: number) => [
      id,
      kind,
      templateId,
      'payments',
      'payment failed <*>',
      nsAt(startedMs),
      nsAt(lastMs),
      20,
      25,
      2.5,
      null,
      null,
      [TRACE, STORY_TRACE],
      true,
      1,
    ];
    await t.store.insert(
      'log_alerts',
      [
        'alert_id',
        'kind',
        'template_id',
        'service',
        'template',
        'started_at_ns',
        'last_at_ns',
        'window_count',
        'peak_count',
        'baseline_per_window',
        'baseline_day',
        'baseline_week',
        'example_trace_ids',
        'published',
        'updated_at_ms',
      ],
      [
        alert('00000000000000f1', 'new', 42n, -12 * MINUTE_MS, -8 * MINUTE_MS),
        alert('00000000000000f2', 'spike', 42n, -9 * MINUTE_MS, -2 * MINUTE_MS), // spike wins over new
        alert('00000000000000f3', 'new', 43n, -4 * MINUTE_MS + 1000, -MINUTE_MS), // started 6 min after the trace: too late
        alert('00000000000000f4', 'silence', 43n, -10 * MINUTE_MS, -MINUTE_MS), // silence never counts
        alert('00000000000000f5', 'spike', 18446744073709551615n, -40 * MINUTE_MS, -21 * MINUTE_MS), // last seen 11 min before: too early
        alert('00000000000000f6', 'new', 18446744073709551615n, -15 * MINUTE_MS, -20 * MINUTE_MS), // last seen exactly 10 min before: counts
      ],
    );
  });

  it('lists each mined line once with its template and the alert around the trace', async () => {
    const { status, body } = await t.get(`/api/v1/traces/${TRACE}/log-templates`);
    assert.equal(status, 200);
    assert.deepEqual(body, [
      {
        log_id: '1001',
        template_id: '42',
        template: 'payment failed <*>',
        alert: {
          alert_id: '00000000000000f2',
          kind: 'spike',
          template_id: '42',
          service: 'payments',
          template: 'payment failed <*>',
          started_at_ns: nsAt(-9 * MINUTE_MS),
          last_at_ns: nsAt(-2 * MINUTE_MS),
          window_count: 20,
          peak_count: 25,
          baseline_per_window: 2.5,
          active: true,
          example_traces: [
            { trace_id: TRACE, story_id: null },
            { trace_id: STORY_TRACE, story_id: STORY_TRACE },
          ],
        },
      },
      { log_id: '1002', template_id: '43', template: 'retrying <*>', alert: null },
      { log_id: '18446744073709551614', template_id: '18446744073709551615', template: 'big id template', alert: body[2].alert },
    ]);
    assert.equal(body[2].alert?.alert_id, '00000000000000f6');
    assert.equal(body[2].alert?.active, false);
  });

  it('is empty for a trace without mined logs and 400 for a bad id', async () => {
    assert.deepEqual(await t.get(`/api/v1/traces/${hexId(0xdead)}/log-templates`), { status: 200, body: [] });
    await expect400('/api/v1/traces/nothex/log-templates', 'id must be 32 hexadecimal characters');
  });
});

describe('GET /api/v1/traces/{id} with typed attributes', () => {
  it('answers plain [key, value] pairs: the stored marks of bytes, big int64 and integral doubles stay out', async () => {
    const traceId = hexId(0x7a7);
    await insertSpans(t.store, [
      spanRow(traceId, 1, {
        // A day back, out of the windows the other cases here count services in.
        startNs: nsAt(-26 * 60 * MINUTE_MS),
        durationMs: 5,
        serviceName: 'typed',
        attrs: [
          ['raw', 'AQI=', 'b'],
          ['big', '9007199254740993', 'i'],
          ['whole', 2, 'd'],
          ['list', ['AQ==', 1], ['b', null]],
          ['plain', 'x'],
        ],
        resource: [
          ['service.name', 'typed'],
          ['cpu', 4, 'd'],
        ],
        events: [{ tsNs: nsAt(-26 * 60 * MINUTE_MS), name: 'e', attrs: [['n', 3, 'd']] }],
      }),
    ]);
    const { status, body } = await t.get(`/api/v1/traces/${traceId}`);
    assert.equal(status, 200);
    const [span] = (body as { spans: { attrs: unknown; resource: unknown; events: { attrs: unknown }[] }[] }).spans;
    assert.deepEqual(span!.attrs, [
      ['raw', 'AQI='],
      ['big', '9007199254740993'],
      ['whole', 2],
      ['list', ['AQ==', 1]],
      ['plain', 'x'],
    ]);
    assert.deepEqual(span!.resource, [
      ['service.name', 'typed'],
      ['cpu', 4],
    ]);
    assert.deepEqual(span!.events[0]!.attrs, [['n', 3]]);
  });
});

describe('GET /api/v1/service-map and /api/v1/services/{name}', () => {
  const serving = (service: string, n: number, offsetMin: number, durationMs: number, over: Partial<SpanRow> = {}) =>
    spanRow(hexId(0x9000 + n), n, { startNs: nsAt(offsetMin * MINUTE_MS), durationMs, serviceName: service, ...over });

  before(async () => {
    const spans: SpanRow[] = [];
    // backend: 200 quick calls 5 h ago make its 24 h p99 1 ms; one 10 ms call in the window is slow.
    for (let i = 0; i < 200; i++) spans.push(serving('backend', 100 + i, -300, 1));
    spans.push(serving('backend', 400, -15, 10));
    // frontend: 4 server calls in the window, one failed (25 %); its client span does not count.
    spans.push(
      serving('frontend', 401, -40, 20, { status: 'error' }),
      serving('frontend', 402, -30, 20),
      serving('frontend', 403, -20, 20),
      serving('frontend', 404, -10, 20),
    );
    spans.push(serving('frontend', 405, -10, 15, { kind: 'client', status: 'error' }));
    // worker: consumer spans count as calls.
    spans.push(serving('worker', 406, -12, 4, { kind: 'consumer' }), serving('worker', 407, -11, 6, { kind: 'consumer' }));
    // edge-proxy: client spans only.
    spans.push(serving('edge-proxy', 408, -9, 3, { kind: 'client' }));
    await insertSpans(t.store, spans);
    const minute = (offsetMin: number) => Math.floor((NOW_MS + offsetMin * MINUTE_MS) / MINUTE_MS) * 60;
    await t.store.insert(
      'service_edges',
      ['minute', 'parent', 'child', 'calls', 'errors', 'duration_ns_sum'],
      [
        [minute(-10), 'frontend', 'backend', 4, 1, 40_000_000],
        [minute(-10), 'frontend', 'backend', 2, 0, 20_000_000], // not merged yet: reads sum
        [minute(-20), 'edge-proxy', 'frontend', 3, 0, 90_000_000],
        [minute(-120), 'frontend', 'backend', 100, 100, 1], // outside the hour
      ],
    );
  });

  it('returns edges and nodes with calls, rates, p99, 24 h baseline p99 and health', async () => {
    const { status, body } = await t.get('/api/v1/service-map');
    assert.equal(status, 200);
    assert.deepEqual(body.edges, [
      { parent: 'frontend', child: 'backend', calls: 6, errors: 1, error_rate: 1 / 6, avg_duration_ns: 10_000_000 },
      { parent: 'edge-proxy', child: 'frontend', calls: 3, errors: 0, error_rate: 0, avg_duration_ns: 30_000_000 },
    ]);
    const nodes = new Map(body.nodes.map((node: { service: string }) => [node.service, node]));
    assert.deepEqual([...nodes.keys()], ['backend', 'edge-proxy', 'frontend', 'worker']);
    assert.deepEqual(nodes.get('backend'), {
      service: 'backend',
      calls: 1,
      rate: 1 / 3600,
      error_ratio: 0,
      p99_ns: 10_000_000,
      baseline_p99_ns: 1_000_000,
      health: 'slow',
    });
    assert.deepEqual(nodes.get('frontend'), {
      service: 'frontend',
      calls: 4,
      rate: 4 / 3600,
      error_ratio: 0.25,
      p99_ns: 20_000_000,
      baseline_p99_ns: 20_000_000,
      health: 'error',
    });
    assert.deepEqual(nodes.get('edge-proxy'), { service: 'edge-proxy', calls: 0, rate: 0, error_ratio: 0, p99_ns: 0, baseline_p99_ns: 0, health: 'ok' });
    const worker = nodes.get('worker') as { calls: number; health: string; p99_ns: number };
    assert.equal(worker.calls, 2);
    assert.equal(worker.health, 'ok');
    assert.ok(worker.p99_ns > 5_900_000 && worker.p99_ns <= 6_000_000, String(worker.p99_ns));
  });

  it('judges a past window against the 24 h before its end', async () => {
    const { body } = await t.get(`/api/v1/service-map?since=1h&until=${NOW_SECS - 6 * 3600}`);
    assert.deepEqual(body, { edges: [], nodes: [] });
    const earlier = await t.get(`/api/v1/service-map?since=2h&until=${NOW_SECS - 4 * 3600}`);
    assert.deepEqual(earlier.body.nodes, [
      { service: 'backend', calls: 200, rate: 200 / 7200, error_ratio: 0, p99_ns: 1_000_000, baseline_p99_ns: 1_000_000, health: 'ok' },
    ]);
  });

  it('gives a service RED series on the grid whose buckets add up to the totals', async () => {
    const { status, body } = await t.get('/api/v1/services/frontend');
    assert.equal(status, 200);
    assert.equal(body.service, 'frontend');
    assert.equal(body.bucket_secs, 60);
    assert.equal(body.calls, 4);
    assert.equal(body.errors, 1);
    assert.equal(body.buckets.length, 61);
    const busy = body.buckets.filter((b: { rate: number }) => b.rate > 0);
    assert.equal(busy.length, 4);
    assert.deepEqual(busy[0], {
      bucket: Math.floor((NOW_MS - 40 * MINUTE_MS) / MINUTE_MS) * 60,
      rate: 1 / 60,
      error_ratio: 1,
      p50_ns: 20_000_000,
      p95_ns: 20_000_000,
      p99_ns: 20_000_000,
    });
    assert.equal(busy[1].error_ratio, 0);
    assert.deepEqual(body.buckets[0], { bucket: Math.floor((NOW_MS - 3_600_000) / MINUTE_MS) * 60, rate: 0, error_ratio: 0, p50_ns: 0, p95_ns: 0, p99_ns: 0 });
  });

  it('answers a service with client spans only, 404 without spans in the window, 400 for a long name', async () => {
    const proxy = await t.get('/api/v1/services/edge-proxy');
    assert.equal(proxy.status, 200);
    assert.equal(proxy.body.calls, 0);
    assert.deepEqual(await t.get('/api/v1/services/nobody'), { status: 404, body: { error: 'not found' } });
    assert.deepEqual(await t.get('/api/v1/services/backend?since=1m'), { status: 404, body: { error: 'not found' } });
    await expect400(`/api/v1/services/${'n'.repeat(201)}`, 'service name must be at most 200 characters');
    assert.deepEqual(await t.get(`/api/v1/services/${'n'.repeat(200)}`), { status: 404, body: { error: 'not found' } });
    assert.deepEqual(await t.get(`/api/v1/services/${encodeURIComponent('é'.repeat(200))}`), { status: 404, body: { error: 'not found' } });
    await expect400(`/api/v1/services/${encodeURIComponent('é'.repeat(201))}`, 'service name must be at most 200 characters');
    assert.equal((await t.get(`/api/v1/services/${encodeURIComponent('edge-proxy')}`)).status, 200);
    await expect400('/api/v1/services/frontend?since=7d&until=1', 'window start must be within the last 7 days');
  });

  it('answers the map 400 with the contract messages', async () => {
    await expect400('/api/v1/service-map?since=1x', 'since must be <n>s, <n>m, <n>h or <n>d');
    await expect400(`/api/v1/service-map?until=${NOW_SECS + 120}`, 'until must be at most 60s in the future');
  });
});

describe('GET /api/v1/search', () => {
  before(async () => {
    await insertStories(t.store, [
      {
        storyId: hexId(0x5e),
        fingerprint: '9876',
        kind: 'error',
        tsNs: nsAt(-MINUTE_MS),
        durationNs: 1n,
        endpointService: 'frontend',
        endpointName: 'GET /checkout',
        rcService: 'payments',
        rcSpanName: 'charge',
        summary: 'Payments charge failed: card declined',
        writtenAtMs: 1,
      },
    ]);
    await insertSpans(t.store, [spanRow(hexId(0x5f), 1, { startNs: nsAt(-MINUTE_MS), durationMs: 1, serviceName: 'payments' })]);
  });

  it('finds services, templates and groups case-insensitively', async () => {
    const { status, body } = await t.get('/api/v1/search?q=PAYMENT');
    assert.equal(status, 200);
    assert.deepEqual(body.services, ['payments']);
    assert.deepEqual(body.templates, [{ template_id: '42', service: 'payments', template: 'payment failed <*>' }]);
    assert.deepEqual(body.groups.map((g: { fingerprint: string }) => g.fingerprint).sort(), ['7', '9876']);
    assert.deepEqual(
      body.groups.find((g: { fingerprint: string }) => g.fingerprint === '9876'),
      { fingerprint: '9876', kind: 'error', summary: 'Payments charge failed: card declined', stories: 1 },
    );
    assert.equal(body.trace_id, null);
  });

  it('matches ids exactly and returns a 32-hex q as the trace id', async () => {
    assert.deepEqual(
      (await t.get('/api/v1/search?q=9876')).body.groups.map((g: { fingerprint: string }) => g.fingerprint),
      ['9876'],
    );
    assert.deepEqual(
      (await t.get('/api/v1/search?q=18446744073709551615')).body.templates.map((x: { template: string }) => x.template),
      ['big id template'],
    );
    const hex = 'ABCDEF0123456789ABCDEF0123456789';
    assert.deepEqual(await t.get(`/api/v1/search?q=${hex}`), { status: 200, body: { services: [], templates: [], groups: [], trace_id: hex.toLowerCase() } });
  });

  it('answers 400 without q, with an empty q or one over 200 characters', async () => {
    await expect400('/api/v1/search', 'q must be within 1..200 characters');
    await expect400('/api/v1/search?q=', 'q must be within 1..200 characters');
    await expect400(`/api/v1/search?q=${'q'.repeat(201)}`, 'q must be within 1..200 characters');
    assert.equal((await t.get(`/api/v1/search?q=${'é'.repeat(200)}`)).status, 200);
  });
});
