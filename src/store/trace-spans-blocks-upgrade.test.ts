/**
 * Migration 15 (trace_spans compressed in blocks of up to 64 KiB) on a store whose trace_spans
 * already holds parts in 16 KiB blocks: the setting is in place, and every trace-by-id route (svc's
 * own, Jaeger's, API v3's) answers the same bytes from parts of both block sizes side by side and
 * once a merge has rewritten them into one part.
 */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { Registry } from 'prom-client';
import { createJaegerRoutes } from '../api/jaeger/routes.js';
import { createApi, type Api } from '../api/server.js';
import { createTraceRepo } from '../api/trace-repo.js';
import type { SpanRow } from '../model/signals.js';
import type { Store } from '../model/store.js';
import { insertSpans } from '../testing/store-rows.js';
import { createLogger } from '../util/log.js';
import { createStore } from './create-store.js';
import { migrate } from './migrate.js';
import { MIGRATIONS } from './migrations/index.js';
import { migration0015 } from './migrations/0015-trace-spans-blocks.js';
import { getTraceSpans } from './spans.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-trace-spans-blocks-'));
let store: Store;
let api: Api;
const NOW_MS = Date.now();
const TRACES = 4;
/** Spans per trace and per insert: a granule of 256 packed spans then spans several 16 KiB blocks. */
const SPANS = 150;

before(async () => {
  store = await createStore({ clickhouse: { url: '', database: 'svc_trace_spans_blocks' }, embedded: { data_dir: join(dir, 'data') } });
  api = createApi(
    { listen: { host: '127.0.0.1', port: 0 }, queryTimeoutSecs: 15 },
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
});

after(async () => {
  await api?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const traceId = (t: number) => `${t + 1}`.repeat(32).slice(0, 32);

function span(t: number, index: number): SpanRow {
  const startNs = BigInt(NOW_MS - 60_000) * 1_000_000n + BigInt(index) * 1_000n + BigInt(t);
  return {
    traceId: traceId(t),
    spanId: (t * 10_000 + index + 1).toString(16).padStart(16, '0'),
    parentSpanId: index === 0 ? '' : (t * 10_000 + 1).toString(16).padStart(16, '0'),
    serviceName: `service-${index % 3}`,
    name: index === 0 ? 'GET /orders/{id}' : `step "${index}"\n`,
    kind: index === 0 ? 'server' : 'internal',
    startNs,
    endNs: startNs + BigInt(500 + index),
    status: index % 7 === 3 ? 'error' : 'unset',
    statusMessage: index % 7 === 3 ? `declined / é ${index}` : '',
    attrs: [
      ['n', index],
      ['text', `order ${index} of trace ${t} for customer ${index * 7919} in region ${index % 13}, ß ✓`],
      ['big', '9223372036854775807'],
      ['list', [index, 'a', { k: null }]],
    ],
    resource: [['service.name', `service-${index % 3}`]],
    events: index % 5 === 0 ? [{ tsNs: startNs + 3n, name: 'exception', attrs: [['exception.type', 'E']] }] : [],
    scopeName: 'scope',
    scopeVersion: '1.0',
    ...(index % 11 === 0 ? { links: [{ traceId: 'f'.repeat(32), spanId: '1'.repeat(16), traceState: 'a=b', attrs: [['k', 'v']], droppedAttrsCount: 2 }] } : {}),
  };
}

const spansOf = (first: number) => Array.from({ length: TRACES }, (_, t) => Array.from({ length: SPANS }, (_, i) => span(t, first + i))).flat();

/** Every by-id route's answer for every trace, as the bytes sent. */
async function answers(): Promise<string[]> {
  const bodies: string[] = [];
  for (let t = 0; t < TRACES; t++) {
    for (const url of [`/api/v1/traces/${traceId(t)}`, `/jaeger/api/traces/${traceId(t)}`, `/jaeger/api/v3/traces/${traceId(t)}`]) {
      const response = await api.app.inject({ method: 'GET', url });
      assert.equal(response.statusCode, 200, url);
      bodies.push(response.body);
    }
  }
  return bodies;
}

async function assertStored(rows: SpanRow[]): Promise<void> {
  for (let t = 0; t < TRACES; t++) {
    const expected = rows.filter((row) => row.traceId === traceId(t)).sort((a, b) => (a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : 0));
    assert.deepEqual(await getTraceSpans(store, traceId(t), { nowMs: NOW_MS, withLinks: true }), expected);
  }
}

it('reads traces back the same through every by-id route from parts in 16 KiB blocks, in 64 KiB blocks, and merged', async () => {
  await migrate(
    store,
    MIGRATIONS.filter((m) => m.version < 15),
  );
  const first = spansOf(0);
  await insertSpans(store, first);
  await assertStored(first);
  const beforeUpgrade = await answers();

  assert.deepEqual(
    await migrate(store),
    MIGRATIONS.map((m) => m.version).filter((version) => version >= 15),
  );
  const [table] = await store.query<{ engine_full: string }>(
    "SELECT engine_full FROM system.tables WHERE database = currentDatabase() AND name = 'trace_spans'",
  );
  assert.match(table?.engine_full ?? '', /min_compress_block_size = 4096, max_compress_block_size = 65536/);
  assert.deepEqual(await answers(), beforeUpgrade, 'parts written before keep reading the same');

  const second = spansOf(SPANS);
  await insertSpans(store, second);
  await assertStored([...first, ...second]);
  const sideBySide = await answers();
  const [jaeger] = sideBySide.slice(1, 2).map((body) => JSON.parse(body) as { data: { spans: unknown[] }[] });
  assert.equal(jaeger?.data[0]?.spans.length, 2 * SPANS, 'both parts answer');

  await store.exec('OPTIMIZE TABLE trace_spans FINAL');
  const [parts] = await store.query<{ n: string }>(
    "SELECT count() AS n FROM system.parts WHERE database = currentDatabase() AND table = 'trace_spans' AND active",
  );
  assert.equal(parts?.n, '1');
  await assertStored([...first, ...second]);
  assert.deepEqual(await answers(), sideBySide);

  // Safe to run again (a second process migrating at once runs the same statement).
  for (const statement of migration0015.statements) await store.exec(statement);
  assert.deepEqual(await migrate(store), []);
});
