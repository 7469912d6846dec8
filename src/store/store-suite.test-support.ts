/**
 * The store tests shared by both drivers: each driver's test file opens its store once and
 * runs this suite against it, so embedded chDB and a ClickHouse server pass the same checks.
 */

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { StorageError, StorageTimeoutError, type Store } from '../model/store.js';
import type { AttrPair, LogRow, SpanRow } from '../model/signals.js';
import { LIFETIME_MS } from './lifetimes.js';
import { getTraceLogs } from './logs.js';
import { insertLogs, insertSpans } from '../testing/store-rows.js';
import { appliedVersions, migrate } from './migrate.js';
import { MIGRATIONS } from './migrations/index.js';
import { listServices, MAX_SERVICES } from './services.js';
import { getTraceSpans, getTracesSpans } from './spans.js';
import { storyIdOfTrace } from './story-ids.js';

/** The highest applied version, or 0 on an empty database. */
async function schemaVersion(store: Store): Promise<number> {
  return Math.max(0, ...(await appliedVersions(store)));
}

const NOW_MS = Date.now();
const NOW_NS = BigInt(NOW_MS) * 1_000_000n;
const TRICKY = `it's a "quote" \\ back\\slash\n\ttab ' OR 1=1 -- é 😀 \u0000 end`;

/** Every AttrValue shape: string, safe int, int64 as string, double, bool, null, array, kvlist. */
const ALL_ATTRS: AttrPair[] = [
  ['str', 'plain'],
  ['unicode', 'héllo wörld 日本 😀'],
  ['tricky', TRICKY],
  ['int', 42],
  ['negative', -7],
  ['big_int', '9223372036854775807'],
  ['double', 3.141592653589793],
  ['tiny', 1e-300],
  ['bool_true', true],
  ['bool_false', false],
  ['nothing', null],
  ['empty', ''],
  ['array', ['a', 1, 2.5, false, null, ['nested']]],
  ['kvlist', { inner: 'v', deep: { n: 1, list: [true] } }],
  ['bytes_b64', 'AAEC/w=='],
];

let traceCounter = 0;
/** A fresh 32-hex trace id per test, so tests sharing one database never see each other's rows. */
function newTraceId(): string {
  traceCounter += 1;
  return `${process.pid.toString(16).padStart(8, '0')}${Date.now().toString(16).padStart(12, '0')}${traceCounter.toString(16).padStart(12, '0')}`.slice(-32);
}

function span(traceId: string, spanIndex: number, over: Partial<SpanRow> = {}): SpanRow {
  const startNs = NOW_NS - 3_600_000_000_000n + BigInt(spanIndex) * 1_000_001n + 7n;
  return {
    traceId,
    spanId: spanIndex.toString(16).padStart(16, '0'),
    parentSpanId: spanIndex === 0 ? '' : '0'.repeat(16),
    serviceName: 'checkout',
    name: `GET /cart/${spanIndex}`,
    kind: spanIndex === 0 ? 'server' : 'client',
    startNs,
    endNs: startNs + 123_456_789n,
    status: spanIndex === 0 ? 'error' : 'unset',
    statusMessage: spanIndex === 0 ? TRICKY : '',
    attrs: ALL_ATTRS,
    resource: [
      ['service.name', 'checkout'],
      ['host.name', 'h1'],
    ],
    events: [{ tsNs: startNs + 5n, name: 'exception', attrs: [['exception.message', TRICKY]] }],
    scopeName: 'io.opentelemetry.test',
    scopeVersion: '1.2.3',
    ...over,
  };
}

function log(traceId: string, logIndex: number, over: Partial<LogRow> = {}): LogRow {
  const tsNs = NOW_NS - 1_800_000_000_000n + BigInt(logIndex) * 999_999_999n + 3n;
  return {
    logId: (18446744073709551615n - BigInt(logIndex)).toString(),
    tsNs,
    observedTsNs: tsNs + 11n,
    traceId,
    spanId: '0'.repeat(15) + '1',
    serviceName: 'checkout',
    severityNumber: 17,
    severityText: 'ERROR',
    body: `payment failed: ${TRICKY}`,
    attrs: ALL_ATTRS,
    resource: [['service.name', 'checkout']],
    scopeName: 'logger',
    scopeVersion: '',
    ...over,
  };
}

/** Registers the shared suite; `open` yields a store on an empty database. */
export function storeSuite(driver: string, open: () => Promise<Store>): void {
  describe(`store (${driver})`, () => {
    let store: Store;
    before(async () => {
      store = await open();
    });
    after(async () => {
      await store?.close();
    });

    it('migrate creates the schema once and records the version', async () => {
      assert.equal(await schemaVersion(store), 0);
      const latest = MIGRATIONS[MIGRATIONS.length - 1].version;
      assert.deepEqual(
        await migrate(store),
        MIGRATIONS.map((m) => m.version),
      );
      assert.deepEqual(await migrate(store), [], 'second run applies nothing');
      assert.equal(await schemaVersion(store), latest);
      assert.deepEqual(
        await appliedVersions(store),
        MIGRATIONS.map((m) => m.version),
      );
      const tables = await store.query<{ name: string }>('SELECT name FROM system.tables WHERE database = currentDatabase() ORDER BY name');
      assert.deepEqual(
        tables.map((t) => t.name),
        [
          'call_minutes',
          'log_alerts',
          'logminer_state',
          'logs',
          'metric_samples',
          'notifier_deliveries',
          'op_minutes',
          'schema_version',
          'service_edges',
          'silence_settings',
          'span_services',
          'span_services_mv',
          'spans',
          'stories',
          'template_hits',
          'template_minutes',
          'templates',
          'trace_spans',
          'trace_spans_mv',
          'trace_summaries',
        ],
      );
    });

    it('gives every table the contract lifetime as its TTL', async () => {
      const rows = await store.query<{ name: string; engine_full: string }>('SELECT name, engine_full FROM system.tables WHERE database = currentDatabase()');
      const byName = new Map(rows.map((r) => [r.name, r.engine_full]));
      for (const [table, lifetimeMs] of Object.entries(LIFETIME_MS)) {
        const days = lifetimeMs / 86_400_000;
        assert.match(byName.get(table) ?? '', new RegExp(`TTL .*toIntervalDay\\(${days}\\)`), table);
      }
      for (const table of ['silence_settings', 'logminer_state', 'schema_version']) {
        assert.doesNotMatch(byName.get(table) ?? 'missing', /TTL/, `${table} has no lifetime`);
      }
    });

    it('stores spans and reads them back exactly', async () => {
      const traceId = newTraceId();
      const links = [
        { traceId: newTraceId(), spanId: 'a1a2a3a4a5a6a7a8', traceState: 'vendor=a1', attrs: [['attempt', 2]] as AttrPair[], droppedAttrsCount: 3 },
        { traceId, spanId: '0000000000000000', traceState: '', attrs: [], droppedAttrsCount: 0 },
      ];
      const rows = [span(traceId, 0, { links }), span(traceId, 1, { kind: 'consumer', status: 'ok', events: [] })];
      assert.ok(rows[0].startNs > 2n ** 53n);
      await insertSpans(store, rows);
      assert.deepEqual(await getTraceSpans(store, traceId, { nowMs: NOW_MS, withLinks: true }), rows);
      const { links: _links, ...withoutLinks } = rows[0]!;
      assert.deepEqual(await getTraceSpans(store, traceId, { nowMs: NOW_MS }), [withoutLinks, rows[1]], 'links only when asked for');
      assert.deepEqual(await getTraceSpans(store, newTraceId(), { nowMs: NOW_MS }), []);
    });

    it('stores every span kind and status, and text of every length, exactly (RowBinary lengths of one, two and three bytes)', async () => {
      const traceId = newTraceId();
      const kinds = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'] as const;
      const statuses = ['unset', 'ok', 'error'] as const;
      // 42 three-byte characters are 126 bytes (a one-byte length), 43 are 129 (two bytes); 20k ASCII needs three.
      const texts = ['', 'é'.repeat(42), '€'.repeat(42), '€'.repeat(43), 'x'.repeat(127), 'x'.repeat(128), '😀'.repeat(50), 'y'.repeat(20_000)];
      const rows = texts.map((text, i) =>
        span(traceId, i, { kind: kinds[i % kinds.length], status: statuses[i % statuses.length], name: text, statusMessage: text, scopeVersion: text }),
      );
      await insertSpans(store, rows);
      assert.deepEqual(await getTraceSpans(store, traceId, { nowMs: NOW_MS }), rows);
      const logs = texts.map((text, i) => log(traceId, i, { body: text, severityNumber: i * 3, severityText: text }));
      await insertLogs(store, logs);
      assert.deepEqual(
        await getTraceLogs(store, traceId, { nowMs: NOW_MS }),
        logs.sort((a, b) => Number(a.tsNs - b.tsNs)),
      );
    });

    it('stores logs and reads them back exactly', async () => {
      const traceId = newTraceId();
      const rows = [log(traceId, 0), log(traceId, 1, { body: '{"json":"body"}', severityNumber: 9, severityText: 'INFO', attrs: [] })];
      await insertLogs(store, rows);
      assert.deepEqual(await getTraceLogs(store, traceId, { nowMs: NOW_MS }), rows);
    });

    it('returns a replayed span or log once', async () => {
      const traceId = newTraceId();
      const spans = [span(traceId, 0), span(traceId, 1)];
      const logs = [log(traceId, 0)];
      // Merges would collapse the copies at any moment; stopped, the copies are surely there.
      await store.exec('SYSTEM STOP MERGES spans');
      await store.exec('SYSTEM STOP MERGES trace_spans');
      await store.exec('SYSTEM STOP MERGES logs');
      try {
        await insertSpans(store, spans);
        await insertSpans(store, spans);
        await insertSpans(store, [spans[1]]);
        await insertLogs(store, logs);
        await insertLogs(store, logs);
        const stored = await store.query<{ spans: string; packed: string; logs: string }>(
          `SELECT (SELECT count() FROM spans WHERE trace_id = {t:String}) AS spans,
                  (SELECT count() FROM trace_spans WHERE trace_id = {t:String}) AS packed,
                  (SELECT count() FROM logs WHERE trace_id = {t:String}) AS logs`,
          { t: traceId },
        );
        assert.deepEqual(stored, [{ spans: '5', packed: '5', logs: '2' }], 'the replays are stored');
        assert.deepEqual(await getTraceSpans(store, traceId, { nowMs: NOW_MS }), spans);
        assert.deepEqual(await getTraceLogs(store, traceId, { nowMs: NOW_MS }), logs);
      } finally {
        await store.exec('SYSTEM START MERGES spans');
        await store.exec('SYSTEM START MERGES trace_spans');
        await store.exec('SYSTEM START MERGES logs');
      }
    });

    it('reads the earliest-starting spans of a trace past a bound, each once', async () => {
      const traceId = newTraceId();
      // Inserted latest first, with the same start twice (then the span id orders).
      const spans = [span(traceId, 3), span(traceId, 2), span(traceId, 1), span(traceId, 0)];
      spans[1] = { ...spans[1]!, startNs: spans[0]!.startNs };
      const inOrder = [spans[3]!, spans[2]!, spans[1]!, spans[0]!];
      await store.exec('SYSTEM STOP MERGES spans');
      await store.exec('SYSTEM STOP MERGES trace_spans');
      try {
        await insertSpans(store, spans);
        await insertSpans(store, spans.slice(1));
        assert.deepEqual(await getTracesSpans(store, [traceId], { nowMs: NOW_MS, maxSpans: 10 }), inOrder, 'within the bound');
        assert.deepEqual(await getTracesSpans(store, [traceId], { nowMs: NOW_MS, maxSpans: 4 }), inOrder, 'at the bound, replays counted once');
        assert.deepEqual(await getTracesSpans(store, [traceId], { nowMs: NOW_MS, maxSpans: 3 }), inOrder.slice(0, 3), 'past the bound');
        assert.deepEqual(await getTracesSpans(store, [traceId, newTraceId()], { nowMs: NOW_MS }), inOrder, 'several ids');
      } finally {
        await store.exec('SYSTEM START MERGES spans');
        await store.exec('SYSTEM START MERGES trace_spans');
      }
    });

    it('never returns spans or logs older than their lifetime', async () => {
      const traceId = newTraceId();
      const s = span(traceId, 0);
      const l = log(traceId, 0);
      await insertSpans(store, [s]);
      await insertLogs(store, [l]);
      const spanMs = Number(s.startNs / 1_000_000n);
      const logMs = Number(l.tsNs / 1_000_000n);
      assert.equal((await getTraceSpans(store, traceId, { nowMs: spanMs + LIFETIME_MS.spans - 1 })).length, 1);
      assert.equal((await getTraceSpans(store, traceId, { nowMs: spanMs + LIFETIME_MS.spans + 1 })).length, 0);
      assert.equal((await getTraceLogs(store, traceId, { nowMs: logMs + LIFETIME_MS.logs - 1 })).length, 1);
      assert.equal((await getTraceLogs(store, traceId, { nowMs: logMs + LIFETIME_MS.logs + 1 })).length, 0);
      // A row already stamped older than 3 days at insert is never read back either.
      const oldTrace = newTraceId();
      const oldStartNs = NOW_NS - BigInt(LIFETIME_MS.spans) * 1_000_000n - 60_000_000_000n;
      await insertSpans(store, [span(oldTrace, 0, { startNs: oldStartNs, endNs: oldStartNs + 1n })]);
      await insertLogs(store, [log(oldTrace, 0, { tsNs: oldStartNs })]);
      assert.deepEqual(await getTraceSpans(store, oldTrace, { nowMs: NOW_MS }), []);
      assert.deepEqual(await getTraceLogs(store, oldTrace, { nowMs: NOW_MS }), []);
    });

    it('lists services with spans in the last 24 h, sorted, at most 500', async () => {
      // A fictional clock two days ahead keeps this test apart from other tests' spans.
      const nowMs = NOW_MS + 2 * 86_400_000;
      const nowNs = BigInt(nowMs) * 1_000_000n;
      const at = (agoMs: number): Pick<SpanRow, 'startNs' | 'endNs'> => {
        const startNs = nowNs - BigInt(agoMs) * 1_000_000n;
        return { startNs, endNs: startNs + 1_000n };
      };
      const traceId = newTraceId();
      await insertSpans(store, [
        span(traceId, 0, { serviceName: 'zeta', ...at(60_000) }),
        span(traceId, 1, { serviceName: 'alpha', ...at(23 * 3_600_000) }),
        span(traceId, 2, { serviceName: 'stale', ...at(25 * 3_600_000) }),
        span(traceId, 3, { serviceName: 'alpha', ...at(1_000) }),
      ]);
      assert.deepEqual(await listServices(store, nowMs), ['alpha', 'zeta']);

      const many = Array.from({ length: MAX_SERVICES + 20 }, (_, i) =>
        span(traceId, 100 + i, { serviceName: `svc-${String(i).padStart(4, '0')}`, ...at(120_000) }),
      );
      await insertSpans(store, many);
      const listed = await listServices(store, nowMs);
      assert.equal(listed.length, MAX_SERVICES);
      assert.deepEqual(listed, [...listed].sort());
      assert.equal(listed[0], 'alpha');
    });

    it('finds the story id of a trace within the stories lifetime', async () => {
      const traceId = newTraceId();
      const tsNs = NOW_NS - 60_000_000_000n;
      await store.insert(
        'stories',
        [
          'story_id',
          'fingerprint',
          'kind',
          'ts_ns',
          'duration_ns',
          'endpoint_service',
          'endpoint_name',
          'rc_service',
          'rc_span_name',
          'summary',
          'story',
          'written_at_ms',
        ],
        [[traceId, 18446744073709551615n, 'error', tsNs, 5n, 'web', 'GET /', 'db', 'query', 'db failed', '{}', NOW_MS]],
      );
      assert.equal(await storyIdOfTrace(store, traceId, NOW_MS), traceId);
      assert.equal(await storyIdOfTrace(store, newTraceId(), NOW_MS), null);
      const storyMs = Number(tsNs / 1_000_000n);
      assert.equal(await storyIdOfTrace(store, traceId, storyMs + LIFETIME_MS.stories + 1), null);
    });

    it('raises StorageTimeoutError past timeoutSecs', async () => {
      const slow = 'SELECT count() FROM numbers(100000000000) WHERE sipHash64(number) = {x:UInt64}';
      await assert.rejects(store.query(slow, { x: 1 }, { timeoutSecs: 1 }), StorageTimeoutError);
      await assert.rejects(store.query('SELECT max(sipHash64(number)) FROM numbers(100000000000)', {}, { timeoutSecs: 1 }), StorageTimeoutError);
    });

    it('raises StorageError without SQL for a bad query', async () => {
      const err = await store.query('SELECT secret_column FROM spans WHERE trace_id = {t:String}', { t: 'x' }).then(
        () => assert.fail('expected a failure'),
        (e: unknown) => e,
      );
      assert.ok(err instanceof StorageError);
      assert.ok(!(err instanceof StorageTimeoutError));
      assert.doesNotMatch(err.message, /secret_column|SELECT|spans/);
      await assert.rejects(store.exec('CREATE TABLE broken ('), StorageError);
      await assert.rejects(store.insert('spans', ['no_such_column'], [[1]]), StorageError);
    });

    it('binds values as parameters: quotes and backslashes round-trip, 64-bit stays exact', async () => {
      const rows = await store.query<{ s: string; u: string; i: string; arr: string[] }>(
        'SELECT {s:String} AS s, {u:UInt64} AS u, {i:Int64} AS i, {arr:Array(String)} AS arr',
        { s: TRICKY, u: 18446744073709551615n, i: -9223372036854775808n, arr: [TRICKY, "'"] },
      );
      assert.deepEqual(rows, [{ s: TRICKY, u: '18446744073709551615', i: '-9223372036854775808', arr: [TRICKY, "'"] }]);
      const injected = await getTraceSpans(store, "' OR 1=1 --", { nowMs: NOW_MS });
      assert.deepEqual(injected, []);
    });

    it('inserts positional rows with exact 64-bit values', async () => {
      await store.insert(
        'silence_settings',
        ['template_id', 'enabled', 'minutes', 'updated_at_ms'],
        [
          [18446744073709551615n, true, 5, 1],
          [18446744073709551615n, false, 30, 2],
        ],
      );
      const rows = await store.query<{ template_id: string; enabled: boolean; minutes: number }>(
        `SELECT template_id, argMax(enabled, updated_at_ms) AS enabled, argMax(minutes, updated_at_ms) AS minutes
         FROM silence_settings WHERE template_id = {id:UInt64} GROUP BY template_id`,
        { id: '18446744073709551615' },
      );
      assert.deepEqual(rows, [{ template_id: '18446744073709551615', enabled: false, minutes: 30 }]);
    });

    it('runs concurrent inserts and reads without losing or crossing rows', async () => {
      const traceIds = Array.from({ length: 20 }, () => newTraceId());
      await Promise.all(traceIds.map((t, i) => insertSpans(store, [span(t, 0), span(t, i + 1)])));
      const reads = await Promise.all(traceIds.map((t) => getTraceSpans(store, t, { nowMs: NOW_MS })));
      reads.forEach((spans, i) => {
        assert.deepEqual(
          spans.map((s) => s.spanId),
          [span('', 0).spanId, span('', i + 1).spanId],
        );
        assert.ok(spans.every((s) => s.traceId === traceIds[i]));
      });
    });
  });
}
