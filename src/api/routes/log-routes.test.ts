/**
 * Log alert and log template routes against real chDB: rows written with the logminer's own store
 * modules, requests through createApi with a fixed clock. Every 400, 404 and 415 with its message.
 */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { createTraceRepo } from '../trace-repo.js';
import type { LogAlert as MinedAlert } from '../../mining/alert-types.js';
import type { Store } from '../../model/store.js';
import { createStore } from '../../store/create-store.js';
import { insertAlertVersions } from '../../store/log-alerts.js';
import { migrate } from '../../store/migrate.js';
import { insertSilence } from '../../store/silence.js';
import { insertMinuteCounts } from '../../store/template-minutes.js';
import { insertTemplateHits, type TemplateHitRow } from '../../store/template-hits.js';
import { upsertTemplates, type TemplateRow } from '../../store/templates.js';
import { parseJsonExact } from '../../util/json.js';
import { createLogger } from '../../util/log.js';
import { createApi, type Api } from '../server.js';
import { createLogRoutes } from './log-routes.js';
import { hexId, insertStories, MINUTE_MS, NOW_MS, NOW_SECS, nsAt } from './route-test-app.test-support.js';

const TPL_A = '1001';
const TPL_B = '18446744073709551615';
const TPL_C = '1003';
const TPL_OTHER_SVC = '2001';
const TRACE_STORY = hexId(0x51);
const TRACE_PLAIN = hexId(0x52);

function template(id: string, over: Partial<TemplateRow> = {}): TemplateRow {
  return {
    templateId: id,
    service: 'checkout',
    template: `template ${id}`,
    count: 100,
    firstSeenNs: nsAt(-3 * 24 * 60 * MINUTE_MS),
    lastSeenNs: nsAt(-MINUTE_MS),
    maxSeverity: 9,
    sample: `sample line ${id}`,
    maskingVersion: 1,
    signature: `template ${id}`,
    overflow: false,
    createdSeq: 1n,
    updatedAtMs: NOW_MS - 1000,
    ...over,
  };
}

function alert(n: number, over: Partial<MinedAlert> & { started_at_ns: bigint; last_at_ns: bigint }): MinedAlert {
  return {
    alert_id: n.toString(16).padStart(16, '0'),
    kind: 'new',
    template_id: TPL_A,
    service: 'checkout',
    template: `template ${TPL_A}`,
    window_count: 0,
    peak_count: 3,
    baseline_per_window: 0,
    example_traces: [],
    ...over,
  };
}

let logSeq = 0;
/** Stores hits the way the logminer does: one hits row per line, one minute-count row per line. */
async function mine(templateId: string, offsetsMs: number[], over: Partial<TemplateHitRow> = {}, service = 'checkout'): Promise<TemplateHitRow[]> {
  const hits = offsetsMs.map((offsetMs) => ({
    tsNs: nsAt(offsetMs),
    templateId,
    service,
    logId: String(1_000_000 + logSeq++),
    traceId: '',
    spanId: '',
    severityNumber: 9,
    ...over,
  }));
  await insertTemplateHits(store, hits);
  await insertMinuteCounts(
    store,
    hits.map((h) => ({ service, templateId, minute: Number(h.tsNs / 60_000_000_000n), hits: 1 })),
  );
  return hits;
}

const A_ACTIVE = alert(1, {
  kind: 'spike',
  started_at_ns: nsAt(-20 * MINUTE_MS),
  last_at_ns: nsAt(-2 * MINUTE_MS),
  window_count: 50,
  peak_count: 60,
  baseline_per_window: 2.5,
  example_traces: [
    { trace_id: TRACE_STORY, story_id: null },
    { trace_id: TRACE_PLAIN, story_id: null },
  ],
});
const A_OLD = alert(2, { started_at_ns: nsAt(-5 * 60 * MINUTE_MS), last_at_ns: nsAt(-4 * 60 * MINUTE_MS) });
const A_BEFORE_WINDOW = alert(3, { started_at_ns: nsAt(-30 * 60 * MINUTE_MS), last_at_ns: nsAt(-25 * 60 * MINUTE_MS) });
const A_SILENCE = alert(4, {
  kind: 'silence',
  template_id: TPL_C,
  template: `template ${TPL_C}`,
  started_at_ns: nsAt(-60 * MINUTE_MS),
  last_at_ns: nsAt(-MINUTE_MS),
});
const A_OTHER_SVC = alert(5, {
  kind: 'spike',
  service: 'billing',
  template_id: TPL_OTHER_SVC,
  started_at_ns: nsAt(-30 * MINUTE_MS),
  last_at_ns: nsAt(-15 * MINUTE_MS),
  baseline_day: 1,
  baseline_week: 2,
});
/** Started 30 s past now: listed only without `until` (rows reach 60 s past now). */
const A_FUTURE = alert(6, { template_id: TPL_B, template: `template ${TPL_B}`, started_at_ns: nsAt(30_000), last_at_ns: nsAt(30_000) });

let store: Store;
let api: Api;
const dir = mkdtempSync(join(tmpdir(), 'svc-log-routes-'));

before(async () => {
  store = await createStore({ clickhouse: { url: '', database: 'svc_log_routes' }, embedded: { data_dir: join(dir, 'data') } });
  await migrate(store);
  api = createApi(
    { listen: { host: '127.0.0.1', port: 0 }, queryTimeoutSecs: 15 },
    {
      traces: createTraceRepo(store, 15),
      registry: new Registry(),
      metricRegistries: [],
      logger: createLogger('silent'),
      routes: [createLogRoutes(store, { nowMs: () => NOW_MS })],
      checkResponses: true,
    },
  );
  await api.app.ready();
  await upsertTemplates(store, [
    template(TPL_A, { template: 'Payment <*> DECLINED', count: 5, updatedAtMs: NOW_MS - 5000 }),
    template(TPL_A, { template: 'payment <*> declined by <*>', count: 500, maxSeverity: 17 }), // newer version wins
    template(TPL_B, { template: 'user <*> logged in' }),
    template(TPL_C, { template: 'nightly backup done' }),
    template(TPL_OTHER_SVC, { service: 'billing', template: 'invoice <*> sent' }),
  ]);
  await insertAlertVersions(store, [
    { alert: { ...A_ACTIVE, last_at_ns: nsAt(-10 * MINUTE_MS), window_count: 20 }, published: true, updatedAtMs: 1 },
    { alert: A_ACTIVE, published: true, updatedAtMs: 2 },
    ...[A_OLD, A_BEFORE_WINDOW, A_SILENCE, A_OTHER_SVC, A_FUTURE].map((a) => ({ alert: a, published: true, updatedAtMs: 1 })),
  ]);
  await insertStories(store, [
    {
      storyId: TRACE_STORY,
      fingerprint: '77',
      kind: 'error',
      tsNs: nsAt(-3 * MINUTE_MS),
      durationNs: 1_000_000n,
      endpointService: 'checkout',
      endpointName: 'POST /pay',
      rcService: 'checkout',
      rcSpanName: 'pay',
      summary: 's',
      writtenAtMs: NOW_MS,
    },
  ]);
  // A: 6 hits in the hour (two in the window's partial first minute, one in its partial last),
  // one before the window, one after its end; B: 2 hits; C: 1 hit; billing: 9 hits.
  await mine(TPL_A, [
    -60 * MINUTE_MS - 1000,
    -60 * MINUTE_MS + 1000,
    -60 * MINUTE_MS + 20_000,
    -30 * MINUTE_MS,
    -30 * MINUTE_MS + 5,
    -5 * MINUTE_MS,
    -10_000,
    10_000,
  ]);
  await mine(TPL_A, [-2 * MINUTE_MS], { traceId: TRACE_STORY, spanId: '00000000000000a1', severityNumber: 17 });
  await mine(TPL_A, [-90 * MINUTE_MS], { traceId: TRACE_PLAIN, spanId: '00000000000000a2' });
  await mine(TPL_B, [-40 * MINUTE_MS, -39 * MINUTE_MS]);
  await mine(TPL_C, [-50 * MINUTE_MS]);
  await mine(
    TPL_OTHER_SVC,
    Array.from({ length: 9 }, (_, i) => -20 * MINUTE_MS + i * 1000),
    {},
    'billing',
  );
  await insertSilence(store, TPL_C, { enabled: true, minutes: 30 }, 1);
});
after(async () => {
  await api?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- checked field by field
async function request(method: 'GET' | 'PUT', url: string, payload?: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const response = await api.app.inject({ method, url, payload, headers });
  return { status: response.statusCode, body: response.body === '' ? undefined : parseJsonExact(response.body) };
}
const get = (url: string) => request('GET', url);
const putJson = (url: string, body: string) => request('PUT', url, body, { 'content-type': 'application/json' });

async function expectError(response: Promise<{ status: number; body: unknown }>, status: number, message: string): Promise<void> {
  assert.deepEqual(await response, { status, body: { error: message } });
}

const minuteStart = (offsetMs: number) => Math.floor((NOW_MS + offsetMs) / MINUTE_MS) * 60;

describe('GET /api/v1/log-alerts', () => {
  it('lists the alerts overlapping the last 24 h, newest last_at first, newest version of each, active at the window end', async () => {
    const { status, body } = await get('/api/v1/log-alerts');
    assert.equal(status, 200);
    assert.deepEqual(
      body.map((a: { alert_id: string }) => a.alert_id),
      [A_FUTURE, A_SILENCE, A_ACTIVE, A_OTHER_SVC, A_OLD].map((a) => a.alert_id),
    );
    const active = body[2];
    assert.deepEqual(active, {
      alert_id: A_ACTIVE.alert_id,
      kind: 'spike',
      template_id: TPL_A,
      service: 'checkout',
      template: `template ${TPL_A}`,
      started_at_ns: A_ACTIVE.started_at_ns,
      last_at_ns: A_ACTIVE.last_at_ns,
      window_count: 50,
      peak_count: 60,
      baseline_per_window: 2.5,
      active: true,
      example_traces: [
        { trace_id: TRACE_STORY, story_id: TRACE_STORY },
        { trace_id: TRACE_PLAIN, story_id: null },
      ],
    });
    assert.deepEqual(
      body.map((a: { active: boolean }) => a.active),
      [true, true, true, false, false],
    );
    assert.equal(body[3].baseline_day, 1);
    assert.equal(body[3].baseline_week, 2);
  });

  it('filters by kind and service; with until the window ends there', async () => {
    assert.deepEqual(
      (await get('/api/v1/log-alerts?kind=spike')).body.map((a: { alert_id: string }) => a.alert_id),
      [A_ACTIVE.alert_id, A_OTHER_SVC.alert_id],
    );
    assert.deepEqual(
      (await get('/api/v1/log-alerts?service=billing')).body.map((a: { alert_id: string }) => a.alert_id),
      [A_OTHER_SVC.alert_id],
    );
    assert.deepEqual((await get('/api/v1/log-alerts?kind=silence&service=billing')).body, []);
    const until = await get(`/api/v1/log-alerts?since=1h&until=${NOW_SECS - 12 * 60}`);
    assert.deepEqual(
      until.body.map((a: { alert_id: string; active: boolean }) => [a.alert_id, a.active]),
      [
        [A_SILENCE.alert_id, true],
        [A_ACTIVE.alert_id, true],
        [A_OTHER_SVC.alert_id, true],
      ],
    );
  });

  it('answers 400 on bad parameters', async () => {
    await expectError(get('/api/v1/log-alerts?kind=error'), 400, 'invalid kind (expected new, spike or silence)');
    await expectError(get('/api/v1/log-alerts?since=8d'), 400, 'since must be within 1s..7d');
    await expectError(get('/api/v1/log-alerts?since=yesterday'), 400, 'since must be <n>s, <n>m, <n>h or <n>d');
    await expectError(get(`/api/v1/log-alerts?until=${NOW_SECS + 120}`), 400, 'until must be at most 60s in the future');
    await expectError(get(`/api/v1/log-alerts?service=${'s'.repeat(201)}`), 400, 'service must be at most 200 characters');
  });
});

describe('GET /api/v1/log-templates', () => {
  it('lists templates by hits in the window, counting partial edge minutes exactly, with flags and buckets', async () => {
    const { status, body } = await get('/api/v1/log-templates');
    assert.equal(status, 200);
    assert.deepEqual(
      body.map((t: { template_id: string }) => t.template_id),
      [TPL_OTHER_SVC, TPL_A, TPL_B, TPL_C],
    );
    const a = body[1];
    assert.deepEqual(a, {
      template_id: TPL_A,
      service: 'checkout',
      template: 'payment <*> declined by <*>',
      count: 500,
      first_seen_ns: nsAt(-3 * 24 * 60 * MINUTE_MS),
      last_seen_ns: nsAt(-MINUTE_MS),
      max_severity: 17,
      alerting: true,
      silence_enabled: false,
      bucket_secs: 60,
      buckets: [
        [minuteStart(-60 * MINUTE_MS), 2],
        [minuteStart(-30 * MINUTE_MS), 2],
        [minuteStart(-5 * MINUTE_MS), 1],
        [minuteStart(-2 * MINUTE_MS), 1],
        [minuteStart(-10_000), 1],
      ],
    });
    const c = body[3];
    assert.equal(c.alerting, false, 'a silence alert does not make a template alerting');
    assert.equal(c.silence_enabled, true);
    assert.equal(body[0].alerting, false, 'spike last seen 15 minutes before the window end is not active');
  });

  it('filters by service and by a case-insensitive substring of the newest template text', async () => {
    assert.deepEqual(
      (await get('/api/v1/log-templates?service=billing')).body.map((t: { template_id: string }) => t.template_id),
      [TPL_OTHER_SVC],
    );
    assert.deepEqual(
      (await get('/api/v1/log-templates?q=DECLINED%20BY')).body.map((t: { template_id: string }) => t.template_id),
      [TPL_A],
    );
    assert.deepEqual(
      (await get('/api/v1/log-templates?q=Payment%20%3C*%3E%20DECLINED%20')).body.map((t: { template_id: string }) => t.template_id),
      [TPL_A],
    );
    assert.deepEqual((await get('/api/v1/log-templates?q=nothing-like-this')).body, []);
    assert.deepEqual((await get('/api/v1/log-templates?service=billing&q=payment')).body, []);
  });

  it('counts a sub-minute window from hits only, and a 24 h window on its bucket grid', async () => {
    const short = await get(`/api/v1/log-templates?since=30s&until=${NOW_SECS}`);
    assert.deepEqual(
      short.body.map((t: { template_id: string; buckets: unknown }) => [t.template_id, t.buckets]),
      [[TPL_A, [[minuteStart(-10_000), 1]]]],
    );
    const day = await get('/api/v1/log-templates?since=24h');
    const a = day.body.find((t: { template_id: string }) => t.template_id === TPL_A);
    assert.equal(a.bucket_secs, 720);
    assert.equal(
      a.buckets.reduce((sum: number, [, n]: [number, number]) => sum + n, 0),
      9,
    );
    for (const [start] of a.buckets) assert.equal(start % 720, 0);
  });

  it('answers 400 on bad parameters', async () => {
    await expectError(get(`/api/v1/log-templates?q=${'q'.repeat(201)}`), 400, 'q must be at most 200 characters');
    await expectError(get('/api/v1/log-templates?since=0s'), 400, 'since must be within 1s..7d');
    await expectError(get('/api/v1/log-templates?q=a&q=b'), 400, 'q must be given once');
  });
});

describe('GET /api/v1/log-templates/{id}', () => {
  it('returns the detail: template, sample, buckets, recent hits with story ids, alerts of 7 days, silence', async () => {
    const { status, body } = await get(`/api/v1/log-templates/${TPL_A}?since=1h`);
    assert.equal(status, 200);
    assert.deepEqual(Object.keys(body), ['template', 'sample', 'bucket_secs', 'buckets', 'recent', 'alerts', 'silence']);
    assert.deepEqual(body.template, {
      template_id: TPL_A,
      service: 'checkout',
      template: 'payment <*> declined by <*>',
      count: 500,
      first_seen_ns: nsAt(-3 * 24 * 60 * MINUTE_MS),
      last_seen_ns: nsAt(-MINUTE_MS),
      max_severity: 17,
      alerting: true,
    });
    assert.equal(body.sample, `sample line ${TPL_A}`);
    assert.equal(body.bucket_secs, 60);
    assert.equal(
      body.buckets.reduce((sum: number, [, n]: [number, number]) => sum + n, 0),
      7,
    );
    // Rows reach 60 s past now without until: the hit 10 s ahead is the newest recent hit.
    assert.deepEqual(body.recent.slice(0, 3), [
      { ts_ns: nsAt(10_000), trace_id: '', span_id: '', severity_number: 9, story_id: null },
      { ts_ns: nsAt(-10_000), trace_id: '', span_id: '', severity_number: 9, story_id: null },
      { ts_ns: nsAt(-2 * MINUTE_MS), trace_id: TRACE_STORY, span_id: '00000000000000a1', severity_number: 17, story_id: TRACE_STORY },
    ]);
    assert.equal(body.recent.length, 8);
    assert.deepEqual(
      body.alerts.map((a: { alert_id: string }) => a.alert_id),
      [A_ACTIVE.alert_id, A_OLD.alert_id, A_BEFORE_WINDOW.alert_id],
    );
    assert.equal(body.silence, null);
  });

  it('keeps at most 20 recent hits, newest first', async () => {
    await mine(
      TPL_B,
      Array.from({ length: 25 }, (_, i) => -30 * MINUTE_MS + i * 1000),
    );
    const { body } = await get(`/api/v1/log-templates/${TPL_B}`);
    assert.equal(body.recent.length, 20);
    assert.equal(body.recent[0].ts_ns, nsAt(-30 * MINUTE_MS + 24_000));
  });

  it('answers 404 for an unknown template and 400 for an id that is not a decimal u64', async () => {
    await expectError(get('/api/v1/log-templates/42'), 404, 'not found');
    await expectError(get('/api/v1/log-templates/18446744073709551616'), 400, 'id must be a decimal u64');
    await expectError(get('/api/v1/log-templates/abc'), 400, 'id must be a decimal u64');
    await expectError(get(`/api/v1/log-templates/${TPL_A}?since=9d`), 400, 'since must be within 1s..7d');
  });
});

describe('PUT /api/v1/log-templates/{id}/silence', () => {
  const url = `/api/v1/log-templates/${TPL_B}/silence`;

  it('stores the setting, the newest wins, and the reads show it', async () => {
    assert.deepEqual(await putJson(url, '{"enabled":true,"minutes":15}'), { status: 200, body: { enabled: true, minutes: 15 } });
    assert.deepEqual(await request('PUT', url, '{"minutes":1440,"enabled":false}', { 'content-type': 'application/json; charset=utf-8' }), {
      status: 200,
      body: { enabled: false, minutes: 1440 },
    });
    assert.deepEqual((await get(`/api/v1/log-templates/${TPL_B}`)).body.silence, { enabled: false, minutes: 1440 });
    assert.deepEqual(await putJson(url, '{"enabled":true,"minutes":1}'), { status: 200, body: { enabled: true, minutes: 1 } });
    assert.deepEqual((await get(`/api/v1/log-templates/${TPL_B}`)).body.silence, { enabled: true, minutes: 1 });
    const listed = (await get('/api/v1/log-templates')).body.find((t: { template_id: string }) => t.template_id === TPL_B);
    assert.equal(listed.silence_enabled, true);
  });

  it('answers 415 without the JSON content type', async () => {
    const message = 'content type must be application/json';
    await expectError(request('PUT', url), 415, message);
    await expectError(request('PUT', url, '{"enabled":true,"minutes":5}', { 'content-type': 'text/plain' }), 415, message);
    await expectError(request('PUT', url, 'enabled=true&minutes=5', { 'content-type': 'application/x-www-form-urlencoded' }), 415, message);
  });

  it('answers 400 on a body that is not exactly {enabled: bool, minutes: 1..=1440}', async () => {
    const shape = 'body must be {enabled: bool, minutes: 1..=1440}';
    await expectError(putJson(url, '{"enabled":true,"minutes":0}'), 400, 'minutes must be 1..=1440');
    await expectError(putJson(url, '{"enabled":true,"minutes":1441}'), 400, 'minutes must be 1..=1440');
    await expectError(putJson(url, '{"enabled":true,"minutes":2.5}'), 400, 'minutes must be 1..=1440');
    await expectError(putJson(url, '{"enabled":true}'), 400, shape);
    await expectError(putJson(url, '{"enabled":"yes","minutes":5}'), 400, shape);
    await expectError(putJson(url, '{"enabled":true,"minutes":"5"}'), 400, shape);
    await expectError(putJson(url, '{"enabled":true,"minutes":5,"extra":1}'), 400, shape);
    await expectError(putJson(url, '[true,5]'), 400, shape);
    await expectError(putJson(url, ''), 400, shape);
    const malformed = await putJson(url, '{"enabled":');
    assert.equal(malformed.status, 400);
    assert.equal(typeof malformed.body.error, 'string');
    // Nothing of the refused requests was stored.
    assert.deepEqual((await get(`/api/v1/log-templates/${TPL_B}`)).body.silence, { enabled: true, minutes: 1 });
  });

  it('answers 400 for an id that is not a decimal u64 and 404 for an unknown template', async () => {
    await expectError(putJson('/api/v1/log-templates/-1/silence', '{"enabled":true,"minutes":5}'), 400, 'id must be a decimal u64');
    await expectError(putJson('/api/v1/log-templates/42/silence', '{"enabled":true,"minutes":5}'), 404, 'not found');
  });
});
