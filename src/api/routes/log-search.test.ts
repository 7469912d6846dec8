/**
 * Log search and log series routes against real chDB: the data dir is first created with the schema
 * before migration 4 and holds logs, then upgraded (the n-gram and text index migrations), and the routes read
 * through createApi with a fixed clock; a second API over the same store runs with auth on.
 */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import { Registry } from 'prom-client';
import { createTraceRepo } from '../trace-repo.js';
import type { LogRow } from '../../model/signals.js';
import type { Store } from '../../model/store.js';
import { createStore } from '../../store/create-store.js';
import { insertLogs } from '../../testing/store-rows.js';
import { migrate } from '../../store/migrate.js';
import { MIGRATIONS } from '../../store/migrations/index.js';
import { BODY_WORDS_EXPRESSION } from '../../store/reads/log-words-index.js';
import { insertTemplateHits } from '../../store/template-hits.js';
import { upsertTemplates } from '../../store/templates.js';
import { parseJsonExact } from '../../util/json.js';
import { createLogger } from '../../util/log.js';
import { createApi, type Api } from '../server.js';
import { createLogRoutes } from './log-routes.js';
import { hexId, MINUTE_MS, NOW_MS, NOW_SECS, nsAt } from './route-test-app.test-support.js';

const TRACE_A = hexId(0xa1);
const TPL = '4242';
const dir = mkdtempSync(join(tmpdir(), 'svc-log-search-'));
let store: Store;
let api: Api;
let authApi: Api;
let upgradeApplied: number[] = [];

let seq = 0;
function log(offsetMs: number, over: Partial<LogRow> = {}): LogRow {
  seq += 1;
  return {
    logId: String(5_000_000 + seq),
    tsNs: nsAt(offsetMs),
    observedTsNs: nsAt(offsetMs),
    traceId: '',
    spanId: '',
    serviceName: 'checkout',
    severityNumber: 9,
    severityText: 'INFO',
    body: `plain line ${seq}`,
    attrs: [],
    resource: [['service.name', over.serviceName ?? 'checkout']],
    scopeName: '',
    scopeVersion: '',
    ...over,
  };
}

// The fixture, all within the last hour unless said otherwise.
const DECLINED = log(-5 * MINUTE_MS, {
  severityNumber: 17,
  severityText: 'ERROR',
  body: 'Payment DECLINED for order 77 by issuer',
  traceId: TRACE_A,
  spanId: '00000000000000b1',
  attrs: [
    ['http.request.header.x-very-long-attribute-name', 'v'],
    ['order.id', 77],
  ],
});
const DECLINED_BILLING = log(-6 * MINUTE_MS, { serviceName: 'billing', severityNumber: 13, severityText: 'WARN', body: 'payment declined: retry later' });
const PERCENT = log(-7 * MINUTE_MS, { body: 'disk 100% full' });
const PERCENT_DECOY = log(-7 * MINUTE_MS, { body: 'disk 1000 full' });
/** Upper case beyond ASCII: matched through the Unicode lowering, not the ASCII case fold. */
const UMLAUT = log(-8 * MINUTE_MS, { body: 'Zahlung ÜBERFÄLLIG seit 100 Tagen' });
/** A word of letters is matched through the text index (migration 8): inside a longer word, glued to digits, in any case. */
const TIMEOUT_INSIDE = log(-9 * MINUTE_MS, { body: 'java.net.SocketTimeoutException: Read timed out' });
const TIMEOUT_GLUED = log(-9 * MINUTE_MS - 1, { body: 'upstream TIMEOUT3s after failed2 attempts (Zeitüberschreitung)' });
const TIMEOUT_DECOYS = log(-10 * MINUTE_MS, { body: 'time out; tim3out; time-out; fail3d' });
const OLD = log(-2 * 60 * MINUTE_MS, { body: 'payment declined long ago' });
const FUTURE = log(30_000, { body: 'stamped ahead of the clock' });
/** 240 lines, three per millisecond stamp, so pages split rows of one stamp. */
const BULK = Array.from({ length: 240 }, (_, i) => log(-50 * MINUTE_MS + Math.floor(i / 3), { serviceName: 'bulk', body: `bulk line ${i}` }));
const ALL_IN_HOUR = [DECLINED, DECLINED_BILLING, PERCENT, PERCENT_DECOY, UMLAUT, TIMEOUT_INSIDE, TIMEOUT_GLUED, TIMEOUT_DECOYS, ...BULK];

before(async () => {
  // An existing data dir: the schema before log search, already holding logs.
  const oldStore = await createStore({ clickhouse: { url: '', database: 'svc_log_search' }, embedded: { data_dir: join(dir, 'data') } });
  await migrate(
    oldStore,
    MIGRATIONS.filter((m) => m.version < 4),
  );
  await insertLogs(oldStore, [DECLINED, DECLINED_BILLING, OLD]);
  await oldStore.close();

  store = await createStore({ clickhouse: { url: '', database: 'svc_log_search' }, embedded: { data_dir: join(dir, 'data') } });
  upgradeApplied = await migrate(store);
  await insertLogs(store, [PERCENT, PERCENT_DECOY, UMLAUT, TIMEOUT_INSIDE, TIMEOUT_GLUED, TIMEOUT_DECOYS, FUTURE, ...BULK]);
  await insertLogs(store, BULK.slice(0, 30)); // replays: listed and counted once
  await upsertTemplates(store, [
    {
      templateId: TPL,
      service: 'checkout',
      template: 'Payment DECLINED for order <*> by <*>',
      count: 1,
      firstSeenNs: DECLINED.tsNs,
      lastSeenNs: DECLINED.tsNs,
      maxSeverity: 17,
      sample: DECLINED.body,
      maskingVersion: 1,
      signature: 'x',
      overflow: false,
      createdSeq: 1n,
      updatedAtMs: NOW_MS,
    },
  ]);
  await insertTemplateHits(store, [
    { tsNs: DECLINED.tsNs, templateId: TPL, service: 'checkout', logId: DECLINED.logId, traceId: TRACE_A, spanId: DECLINED.spanId, severityNumber: 17 },
  ]);

  const deps = {
    traces: createTraceRepo(store, 15),
    registry: new Registry(),
    metricRegistries: [],
    logger: createLogger('silent'),
    routes: [createLogRoutes(store, { nowMs: () => NOW_MS })],
    checkResponses: true,
  };
  api = createApi({ listen: { host: '127.0.0.1', port: 0 }, queryTimeoutSecs: 15 }, deps);
  const passwordHash = await hash('pw', { algorithm: 2, memoryCost: 19456, timeCost: 2, parallelism: 1 });
  authApi = createApi(
    {
      listen: { host: '127.0.0.1', port: 0 },
      queryTimeoutSecs: 15,
      auth: { enabled: true, username: 'admin', password_hash: passwordHash, session_ttl_secs: 3600, session_key: Buffer.alloc(32, 3), secure_cookie: false },
    },
    { ...deps, registry: new Registry() },
  );
  await api.app.ready();
  await authApi.app.ready();
});

after(async () => {
  await api?.close();
  await authApi?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are checked field by field
async function get(url: string, on: Api = api, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
  const response = await on.app.inject({ method: 'GET', url, headers });
  return { status: response.statusCode, body: response.body === '' ? undefined : parseJsonExact(response.body) };
}
const ids = (body: { logs: { log_id: string }[] }) => body.logs.map((l) => l.log_id);

/**
 * Runs `use` against an API whose log routes read through the store, each statement shown first to
 * `onQuery` (which may also act before it runs).
 */
async function throughRecordingStore<T>(
  onQuery: (sql: string, params: Record<string, unknown>) => void | Promise<void>,
  use: (probe: Api) => Promise<T>,
): Promise<T> {
  const recording: Store = {
    ...store,
    query: async (sql, params, options) => {
      await onQuery(sql, params ?? {});
      return store.query(sql, params, options);
    },
  };
  const probe = createApi(
    { listen: { host: '127.0.0.1', port: 0 }, queryTimeoutSecs: 15 },
    {
      traces: createTraceRepo(store, 15),
      registry: new Registry(),
      metricRegistries: [],
      logger: createLogger('silent'),
      routes: [createLogRoutes(recording, { nowMs: () => NOW_MS })],
      checkResponses: true,
    },
  );
  try {
    await probe.app.ready();
    return await use(probe);
  } finally {
    await probe.close();
  }
}

/** Every page of a search with `limit`, following next_cursor. */
async function allPages(url: string, limit: number): Promise<{ pages: number; logIds: string[]; ts: bigint[] }> {
  const logIds: string[] = [];
  const ts: bigint[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const { status, body } = await get(`${url}${url.includes('?') ? '&' : '?'}limit=${limit}${cursor === null ? '' : `&cursor=${cursor}`}`);
    assert.equal(status, 200);
    pages += 1;
    for (const row of body.logs) {
      logIds.push(row.log_id);
      ts.push(row.ts_ns);
    }
    cursor = body.next_cursor;
  } while (cursor !== null && pages < 100);
  return { pages, logIds, ts };
}

describe('migrations 4 and later on an existing data dir', () => {
  it('adds the skipping indexes to the logs table and keeps the logs written before it searchable', async () => {
    // Every migration from 4 on runs on the old data dir (later ones too, as they are added).
    assert.deepEqual(
      upgradeApplied,
      MIGRATIONS.map((migration) => migration.version).filter((version) => version >= 4),
    );
    const indexes = await store.query<{ name: string; type: string; expr: string }>(
      "SELECT name, type, expr FROM system.data_skipping_indices WHERE database = currentDatabase() AND table = 'logs' ORDER BY name",
    );
    const byName = new Map(indexes.map((i) => [i.name, i]));
    assert.equal(byName.get('idx_body_ngram_g4')?.type, 'ngrambf_v1');
    assert.equal(byName.get('idx_body_ngram_g4')?.expr, 'lowerUTF8(body)');
    assert.equal(byName.has('idx_body_ngram'), false, 'the per-granule filter it replaces is gone');
    assert.equal(byName.get('idx_body_words')?.type, 'text');
    // The reads name the indexed expression as the engine stores it: otherwise they would compute it per row.
    assert.equal(byName.get('idx_body_words')?.expr, BODY_WORDS_EXPRESSION);
    const codecs = await store.query<{ name: string; codec: string }>(
      "SELECT name, compression_codec AS codec FROM system.columns WHERE database = currentDatabase() AND table = 'logs' AND name IN ('body', 'ts_ns', 'observed_ts_ns') ORDER BY name",
    );
    assert.deepEqual(codecs, [
      { name: 'body', codec: 'CODEC(LZ4)' },
      { name: 'observed_ts_ns', codec: 'CODEC(Delta(8), LZ4)' },
      { name: 'ts_ns', codec: 'CODEC(Delta(8), LZ4)' },
    ]);
    assert.equal(byName.get('idx_log_id')?.type, 'bloom_filter');
    assert.deepEqual(ids((await get('/api/v1/logs/search?q=declined')).body), [DECLINED.logId, DECLINED_BILLING.logId]);
  });

  it('counts words of letters from the text index; other words and searches go through the n-gram index', async () => {
    // Every statement the routes send, explained by the engine with its own parameters: a text
    // query that stopped naming an index expression would read every body of its window.
    const sent: { sql: string; params: Record<string, unknown> }[] = [];
    await throughRecordingStore(
      (sql, params) => {
        sent.push({ sql, params });
      },
      async (probe) => {
        const expected: [string, RegExp[]][] = [
          // Counted from the index's dictionary and postings, without reading a body.
          ['/api/v1/logs/series?q=declined', [/__text_index_idx_body_words_like/]],
          ['/api/v1/logs/series?q=zahlung%20%C3%BCberf%C3%A4llig', [/__text_index_idx_body_words_like/, /Name: idx_body_ngram_g4/]],
          ['/api/v1/logs/series?q=%C3%BCberf%C3%A4llig', [/Name: idx_body_ngram_g4/]],
          ['/api/v1/logs/series?q=100%25', [/Name: idx_body_ngram_g4/]],
          ['/api/v1/logs/search?q=declined', [/Name: idx_body_ngram_g4/]],
          ['/api/v1/logs/search?q=zahlung%20%C3%BCberf%C3%A4llig', [/Name: idx_body_ngram_g4/]],
          // Shorter than the engine's dictionary scan: the n-gram index.
          ['/api/v1/logs/series?q=out', [/Name: idx_body_ngram_g4/]],
        ];
        for (const [url, uses] of expected) {
          sent.length = 0;
          assert.equal((await get(url, probe)).status, 200, url);
          // The statements that filter on the body (the series also lists the table's parts first).
          const bodyReads = sent.filter((s) => /FROM logs\b[\s\S]*\bbody\b/.test(s.sql));
          assert.ok(bodyReads.length > 0, url);
          for (const { sql, params } of bodyReads) {
            const plan = (await store.query<{ explain: string }>(`EXPLAIN actions = 1, indexes = 1 ${sql}`, params as never)).map((p) => p.explain).join('\n');
            for (const use of uses) assert.match(plan, use, `${url}: ${sql}`);
          }
        }
      },
    );
  });
});

describe('the logs table sorted by service (migration 13)', () => {
  it('narrows a service by the primary key, counts its words from the text index, and finds a trace through its bloom filter', async () => {
    const sent: { sql: string; params: Record<string, unknown> }[] = [];
    await throughRecordingStore(
      (sql, params) => {
        sent.push({ sql, params });
      },
      async (probe) => {
        const byService = /PrimaryKey[\s│]*Keys:[\s│]*service_name/;
        const expected: [string, RegExp[]][] = [
          ['/api/v1/logs/series?service=billing&q=declined', [byService, /__text_index_idx_body_words_like/]],
          ['/api/v1/logs/search?service=billing&q=declined', [byService, /Name: idx_body_ngram_g4/]],
          [`/api/v1/logs/search?trace_id=${TRACE_A}`, [/Name: idx_trace_id/]],
          [`/api/v1/logs/series?trace_id=${TRACE_A}`, [/Name: idx_trace_id/]],
        ];
        for (const [url, uses] of expected) {
          sent.length = 0;
          assert.equal((await get(url, probe)).status, 200, url);
          // The statements that read the logs' rows (the series also lists the table's parts first),
          // planned where they read a part (a search's first time slices may find none).
          let planned = 0;
          for (const { sql, params } of sent.filter((s) => /FROM logs\b[\s\S]*WHERE/.test(s.sql))) {
            const plan = (await store.query<{ explain: string }>(`EXPLAIN actions = 1, indexes = 1 ${sql}`, params as never)).map((p) => p.explain).join('\n');
            if (/Parts: 0 \|/.test(plan)) continue;
            planned += 1;
            for (const use of uses) assert.match(plan, use, `${url}: ${sql}`);
          }
          assert.ok(planned > 0, url);
        }
      },
    );
  });
});

describe('GET /api/v1/logs/search', () => {
  it('lists the last hour newest first with every field, exact ns and the mined template', async () => {
    const { status, body } = await get('/api/v1/logs/search?limit=500');
    assert.equal(status, 200);
    // Without until, rows stamped up to 60 s past now are listed; the 2-hour-old log is not.
    assert.deepEqual(
      ids(body),
      [
        FUTURE,
        DECLINED,
        DECLINED_BILLING,
        ...[PERCENT, PERCENT_DECOY].sort((a, b) => (BigInt(b.logId) > BigInt(a.logId) ? 1 : -1)),
        UMLAUT,
        TIMEOUT_INSIDE,
        TIMEOUT_GLUED,
        TIMEOUT_DECOYS,
        ...[...BULK].reverse(),
      ].map((l) => l.logId),
    );
    assert.equal(body.next_cursor, null);
    assert.deepEqual(body.logs[1], {
      log_id: DECLINED.logId,
      ts_ns: DECLINED.tsNs,
      service_name: 'checkout',
      severity_number: 17,
      severity_text: 'ERROR',
      body: 'Payment DECLINED for order 77 by issuer',
      trace_id: TRACE_A,
      span_id: '00000000000000b1',
      template_id: TPL,
      template: 'Payment DECLINED for order <*> by <*>',
      attrs: [
        ['http.request.header.x-very-long-attribute-name', 'v'],
        ['order.id', 77],
      ],
      resource: [['service.name', 'checkout']],
    });
    assert.equal(body.logs[2].template_id, null);
    assert.equal(body.logs[2].template, null);
  });

  it('filters by service, minimum severity, trace id and template id', async () => {
    assert.deepEqual(ids((await get('/api/v1/logs/search?service=billing')).body), [DECLINED_BILLING.logId]);
    assert.deepEqual(ids((await get('/api/v1/logs/search?severity=warn')).body), [DECLINED.logId, DECLINED_BILLING.logId]);
    assert.deepEqual(ids((await get('/api/v1/logs/search?severity=ERROR')).body), [DECLINED.logId]);
    assert.deepEqual(ids((await get('/api/v1/logs/search?severity=14')).body), [DECLINED.logId]);
    assert.deepEqual(ids((await get(`/api/v1/logs/search?trace_id=${TRACE_A.toUpperCase()}`)).body), [DECLINED.logId]);
    assert.deepEqual(ids((await get(`/api/v1/logs/search?template_id=${TPL}`)).body), [DECLINED.logId]);
    assert.deepEqual(ids((await get(`/api/v1/logs/search?template_id=${TPL}&service=billing`)).body), []);
    assert.deepEqual(ids((await get('/api/v1/logs/search?since=3h&q=declined&service=checkout')).body), [DECLINED.logId, OLD.logId]);
  });

  it('matches text case-insensitively, every word required in any order, LIKE characters literally', async () => {
    assert.deepEqual(ids((await get('/api/v1/logs/search?q=PAYMENT%20declined')).body), [DECLINED.logId, DECLINED_BILLING.logId]);
    assert.deepEqual(ids((await get('/api/v1/logs/search?q=issuer%20%20payment')).body), [DECLINED.logId]);
    assert.deepEqual(ids((await get('/api/v1/logs/search?q=payment%20refunded')).body), []);
    assert.deepEqual(ids((await get('/api/v1/logs/search?q=100%25')).body), [PERCENT.logId]);
    assert.deepEqual(ids((await get('/api/v1/logs/search?q=1_0')).body), []);
    assert.deepEqual(ids((await get('/api/v1/logs/search?q=clin')).body), [DECLINED.logId, DECLINED_BILLING.logId], 'a part of a word matches');
    assert.deepEqual(ids((await get('/api/v1/logs/search?q=%C3%BCberf%C3%A4llig')).body), [UMLAUT.logId], 'überfällig matches ÜBERFÄLLIG');
    assert.deepEqual(ids((await get('/api/v1/logs/search?q=zahlung%20%C3%BCBERf%C3%A4LLIG')).body), [UMLAUT.logId], 'ASCII and non-ASCII words together');
  });

  it('matches a word of letters inside longer words and beside digits, in search and in the series (the text index)', async () => {
    const cases: [string, LogRow[], string][] = [
      ['timeout', [TIMEOUT_INSIDE, TIMEOUT_GLUED], 'SocketTimeoutException and TIMEOUT3s, not "time out" or tim3out'],
      ['TimeOut%20attempts', [TIMEOUT_GLUED], 'any case, every word'],
      ['failed', [TIMEOUT_GLUED], 'failed2 holds failed; fail3d does not'],
      ['ception', [TIMEOUT_INSIDE], 'the end of a word'],
      ['zeit%C3%BCberschreitung%20upstream', [TIMEOUT_GLUED], 'beside a non-ASCII word'],
      ['timeouts', [], 'a longer word'],
      ['tim3out', [TIMEOUT_DECOYS], 'a word with a digit (the index holds none)'],
    ];
    for (const [q, expected, why] of cases) {
      assert.deepEqual(
        ids((await get(`/api/v1/logs/search?q=${q}`)).body),
        expected.map((l) => l.logId),
        `search ${q}: ${why}`,
      );
      assert.equal((await get(`/api/v1/logs/series?q=${q}`)).body.total, expected.length, `series ${q}: ${why}`);
    }
  });

  it('pages through every row once with the cursor, also across rows sharing a stamp', async () => {
    const expected = [...BULK].reverse().map((l) => l.logId);
    const paged = await allPages('/api/v1/logs/search?service=bulk', 7);
    assert.equal(paged.pages, Math.ceil(BULK.length / 7));
    assert.equal(new Set(paged.logIds).size, paged.logIds.length, 'no row repeats');
    assert.deepEqual(paged.logIds, expected, 'no row is skipped and the order is newest first');
    const one = await allPages('/api/v1/logs/search?service=bulk', 1);
    assert.deepEqual(one.logIds.slice(0, 5), expected.slice(0, 5));
    // An exact page: the last page is full and says no more follow.
    const exact = await get('/api/v1/logs/search?service=bulk&limit=240');
    assert.equal(exact.body.logs.length, 240);
    assert.equal(exact.body.next_cursor, null);
    const first = await get('/api/v1/logs/search?service=bulk&limit=100');
    assert.equal(first.body.logs.length, 100);
    assert.match(first.body.next_cursor, /^\d+\.\d+\.\d+$/);
  });

  it('answers 400 naming the parameter', async () => {
    const bad: [string, string][] = [
      ['limit=0', 'limit must be within 1..500'],
      ['limit=501', 'limit must be within 1..500'],
      ['severity=loud', 'severity must be trace, debug, info, warn, error, fatal or a number within 1..24'],
      ['severity=25', 'severity must be trace, debug, info, warn, error, fatal or a number within 1..24'],
      ['trace_id=abc', 'trace_id must be 32 hex characters'],
      ['template_id=x1', 'template_id must be a decimal u64'],
      ['cursor=nope', 'cursor must be the next_cursor of a previous page'],
      [`q=${'q'.repeat(201)}`, 'q must be at most 200 characters'],
      [`service=${'s'.repeat(201)}`, 'service must be at most 200 characters'],
      ['service=a&service=b', 'service must be given once'],
      ['since=8d', 'since must be within 1s..7d'],
      [`until=${NOW_SECS + 120}`, 'until must be at most 60s in the future'],
    ];
    for (const [query, message] of bad) {
      assert.deepEqual(await get(`/api/v1/logs/search?${query}`), { status: 400, body: { error: message } }, query);
    }
    assert.deepEqual(await get('/api/v1/logs/series?severity=loud'), {
      status: 400,
      body: { error: 'severity must be trace, debug, info, warn, error, fatal or a number within 1..24' },
    });
    assert.deepEqual(await get('/api/v1/logs/series?since=0s'), { status: 400, body: { error: 'since must be within 1s..7d' } });
  });
});

describe('GET /api/v1/logs/series', () => {
  it('counts per epoch-grid bucket and severity; the total equals the search count over the same filter', async () => {
    const until = NOW_SECS;
    const { status, body } = await get(`/api/v1/logs/series?until=${until}`);
    assert.equal(status, 200);
    assert.equal(body.bucket_secs, 60);
    assert.equal(body.total, ALL_IN_HOUR.length);
    const levels = ['unspecified', 'trace', 'debug', 'info', 'warn', 'error', 'fatal'];
    assert.deepEqual(Object.keys(body).sort(), ['bucket_secs', 'total', ...levels].sort());
    for (const level of levels) {
      assert.equal(body[level].length, 61, 'every grid bucket, the first and last partial');
      assert.equal(body[level][0][0] % 60, 0);
    }
    const sum = (level: string) => body[level].reduce((s: number, [, n]: [number, number]) => s + n, 0);
    assert.equal(sum('error'), 1);
    assert.equal(sum('warn'), 1);
    assert.equal(sum('info'), ALL_IN_HOUR.length - 2);
    const declinedBucket = body.error.find(([, n]: [number, number]) => n > 0)[0];
    assert.equal(declinedBucket, Math.floor((NOW_MS - 5 * MINUTE_MS) / MINUTE_MS) * 60);

    // Text words without a service count distinct log ids after a PREWHERE on the words over the
    // table's own order (the replayed BULK lines must count once there too); with a service,
    // distinct log ids over the projection; no filter at all, FINAL.
    const filters = [
      '',
      'service=bulk',
      'q=declined',
      'severity=warn',
      `template_id=${TPL}`,
      'q=line&service=bulk',
      'q=bulk',
      'q=LINE&severity=info',
      'q=timeout',
      'q=out',
      'q=%C3%BCberf%C3%A4llig',
      'q=line%20%C3%BCberf%C3%A4llig',
    ];
    for (const filter of filters) {
      const series = await get(`/api/v1/logs/series?until=${until}&${filter}`);
      const listed = await allPages(`/api/v1/logs/search?until=${until}&${filter}`, 500);
      assert.equal(series.body.total, listed.logIds.length, filter);
    }
    assert.equal((await get(`/api/v1/logs/series?until=${until}&q=bulk`)).body.total, BULK.length, 'replays counted once');
    assert.equal((await get(`/api/v1/logs/series?until=${until}&q=%C3%BCberf%C3%A4llig`)).body.total, 1);
  });
});

describe('GET /api/v1/logs/series over parts', () => {
  // Its own two hours, 10 h to 8 h before now, so the other tests' windows never see these logs.
  const untilSecs = NOW_SECS - 8 * 3600;
  const url = `/api/v1/logs/series?since=2h&until=${untilSecs}&service=parts`;
  const at = (minutesBeforeUntil: number, i: number): LogRow =>
    log(-8 * 60 * MINUTE_MS - minutesBeforeUntil * MINUTE_MS + i, { serviceName: 'parts', body: `parts line ${i}` });
  const EARLY = Array.from({ length: 60 }, (_, i) => at(110 - i, i));
  const LATE = Array.from({ length: 60 }, (_, i) => at(50 - (i % 40), 100 + i));
  /** Each written twice in one insert: one part never holds a replay twice. */
  const TWICE = Array.from({ length: 5 }, (_, i) => at(5, 200 + i));

  /** The series answered through a store that records its statements and may act before a count. */
  async function seriesThrough(beforeCount: () => Promise<void> = async () => {}, query = url): Promise<{ total: number; sql: string[] }> {
    const sql: string[] = [];
    return throughRecordingStore(
      async (text, params) => {
        if (!text.includes('AS severity')) return;
        sql.push(`${text} -- ${JSON.stringify(params, (_, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))}`);
        await beforeCount();
      },
      async (probe) => {
        const { status, body } = await get(query, probe);
        assert.equal(status, 200);
        return { total: body.total, sql };
      },
    );
  }

  before(async () => {
    // Parts stay as written, so what the counts rely on is tested on the engine's own parts (a
    // merge would collapse twins whatever the insert did).
    await store.exec('SYSTEM STOP MERGES logs');
    await insertLogs(store, EARLY);
    await insertLogs(store, LATE);
    await insertLogs(store, [...TWICE, ...TWICE]);
    await insertLogs(store, EARLY.slice(0, 10)); // replays, in a part of their own over EARLY's first minutes
  });

  after(async () => {
    await store.exec('SYSTEM START MERGES logs');
  });

  it('counts rows plainly where one part holds their stamps and by distinct id where parts overlap, each log once', async () => {
    const distinct = EARLY.length + LATE.length + TWICE.length;
    const { total, sql } = await seriesThrough();
    assert.equal(total, distinct);
    assert.equal((await allPages(`/api/v1/logs/search?since=2h&until=${untilSecs}&service=parts`, 500)).logIds.length, distinct);
    // Stamps one part holds counted plainly, EARLY's replayed minutes by distinct id.
    assert.match(sql.join('\n'), /countIf\(.*uniqExactIf\(log_id/s);
    for (const filter of ['q=parts', 'q=line&severity=info', 'severity=info']) {
      const series = await get(`${url}&${filter}`);
      assert.equal(series.body.total, distinct, filter);
    }
    assert.equal((await get(`/api/v1/logs/series?since=2h&until=${untilSecs}&q=parts%20line`)).body.total, distinct, 'text over all services');
  });

  it('counts again when a part written during the count reaches stamps it counted plainly', async () => {
    const distinct = EARLY.length + LATE.length + TWICE.length;
    let replayed = false;
    const { total, sql } = await seriesThrough(async () => {
      if (replayed) return;
      replayed = true;
      await insertLogs(store, LATE.slice(0, 20)); // replays of minutes that one part held
    });
    assert.equal(total, distinct);
    assert.ok(sql.length >= 2, 'a second count with the new part in its coverage');
  });
});

describe('auth on', () => {
  it('refuses both routes without credentials and answers with them', async () => {
    for (const url of ['/api/v1/logs/search', '/api/v1/logs/series']) {
      assert.deepEqual(await get(url, authApi), { status: 401, body: { error: 'unauthorized' } });
      const ok = await get(url, authApi, { authorization: `Basic ${Buffer.from('admin:pw').toString('base64')}` });
      assert.equal(ok.status, 200, url);
    }
    const ok = await get('/api/v1/logs/search?service=billing', authApi, { authorization: `Basic ${Buffer.from('admin:pw').toString('base64')}` });
    assert.deepEqual(ids(ok.body), [DECLINED_BILLING.logId]);
  });
});

describe('GET /api/v1/logs/series and the text index limit', () => {
  // 60 words holding `quux`, 8 logs each (long postings, not kept in the dictionary: more than 6
  // rows), in one part, three hours back: more such words than the engine reads for one part (50).
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const QUUX = Array.from({ length: 480 }, (_, i) =>
    log(-3 * 60 * MINUTE_MS - i, { body: `cache quux${letters[(i % 60) % 26]}${letters[Math.floor((i % 60) / 26)]} evicted` }),
  );

  before(async () => {
    // The choice rests on what one part holds: a merge running meanwhile (the tests before start
    // merges again when they end) would change the parts under the look-up.
    await store.exec('SYSTEM STOP MERGES logs');
    await insertLogs(store, QUUX);
  });

  after(async () => {
    await store.exec('SYSTEM START MERGES logs');
  });

  /** The series total and its count statements, read through a store that records them. */
  async function countThrough(query: string): Promise<{ total: number; counts: string[] }> {
    const counts: string[] = [];
    return throughRecordingStore(
      (text) => {
        if (text.includes('AS severity')) counts.push(text);
      },
      async (probe) => {
        const { status, body } = await get(query, probe);
        assert.equal(status, 200);
        return { total: body.total, counts };
      },
    );
  }

  it('reads the bodies for a word inside more long-postings words of one part than the engine reads, the index for one inside fewer', async () => {
    // Row by row on the indexed expression would cost about twice the bodies' search.
    const many = await countThrough('/api/v1/logs/series?since=4h&q=quux');
    assert.equal(many.total, QUUX.length);
    assert.ok(
      many.counts.length > 0 && many.counts.every((sql) => !sql.includes(BODY_WORDS_EXPRESSION) && sql.includes('positionCaseInsensitive')),
      many.counts.join('\n'),
    );
    const one = await countThrough('/api/v1/logs/series?since=4h&q=QUUXBA');
    assert.equal(one.total, 8);
    assert.ok(one.counts.length > 0 && one.counts.every((sql) => sql.includes(BODY_WORDS_EXPRESSION)), one.counts.join('\n'));
    const both = await countThrough('/api/v1/logs/series?since=4h&q=quux%20evicted');
    assert.equal(both.total, QUUX.length);
    assert.ok(
      both.counts.every((sql) => sql.includes(BODY_WORDS_EXPRESSION) && sql.includes('positionCaseInsensitive')),
      'evicted through the index, quux through the bodies',
    );
    assert.equal((await get('/api/v1/logs/search?since=4h&q=quux&limit=500')).body.logs.length, QUUX.length);
  });
});
