/**
 * Migration 11 (trace_spans) on a store that already holds spans: the upgrade copies them, so a
 * trace stored before it reads back whole and exact; and trace_spans is kept and dropped by the
 * spans table's rules (partitions, TTL).
 */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import type { SpanRow } from '../model/signals.js';
import type { Store } from '../model/store.js';
import { insertSpans } from '../testing/store-rows.js';
import { createStore } from './create-store.js';
import { migrate } from './migrate.js';
import { MIGRATIONS } from './migrations/index.js';
import { getTraceSpans } from './spans.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-trace-spans-'));
let store: Store;

before(async () => {
  store = await createStore({ clickhouse: { url: '', database: 'svc_trace_spans' }, embedded: { data_dir: join(dir, 'data') } });
});

after(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const NOW_MS = Date.now();
const TRACE_ID = 'abcdef0123456789abcdef0123456789';

function span(index: number, over: Partial<SpanRow> = {}): SpanRow {
  const startNs = BigInt(NOW_MS - 60_000) * 1_000_000n + BigInt(index) * 1_000n + 1n;
  return {
    traceId: TRACE_ID,
    spanId: `${index}`.padStart(16, '0'),
    parentSpanId: index === 0 ? '' : '0'.repeat(16),
    serviceName: index % 2 === 0 ? 'checkout' : 'payments',
    name: `op "${index}"\n`,
    kind: index === 0 ? 'server' : 'client',
    startNs,
    endNs: startNs + 5_000n,
    status: index === 1 ? 'error' : 'unset',
    statusMessage: index === 1 ? 'card declined / é' : '',
    attrs: [
      ['n', index],
      ['big', '9223372036854775807'],
      ['list', [1, 'a', { k: null }]],
    ],
    resource: [['service.name', index % 2 === 0 ? 'checkout' : 'payments']],
    events: index === 1 ? [{ tsNs: startNs + 3n, name: 'exception', attrs: [['exception.type', 'E']] }] : [],
    scopeName: 'scope',
    scopeVersion: index === 2 ? '' : '1.0',
    ...over,
  };
}

it('copies the spans stored before it, so their traces read back whole and exact', async () => {
  await migrate(
    store,
    MIGRATIONS.filter((m) => m.version < 11),
  );
  const rows = [
    span(0),
    span(1, { links: [{ traceId: 'f'.repeat(32), spanId: '1'.repeat(16), traceState: 'a=b', attrs: [['k', 'v']], droppedAttrsCount: 2 }] }),
    span(2),
  ];
  await insertSpans(store, rows);
  assert.deepEqual(
    await migrate(
      store,
      MIGRATIONS.filter((m) => m.version <= 11),
    ),
    [11],
  );
  assert.deepEqual(await getTraceSpans(store, TRACE_ID, { nowMs: NOW_MS, withLinks: true }), rows);
  // A span stored after the upgrade arrives through the view.
  const later = span(3);
  await insertSpans(store, [later]);
  assert.deepEqual(await getTraceSpans(store, TRACE_ID, { nowMs: NOW_MS, withLinks: true }), [...rows, later]);
});

it('keeps trace_spans by the spans table rules: the same partitions, TTL and whole-part drops', async () => {
  const tables = await store.query<{ name: string; partition_key: string; engine_full: string }>(
    "SELECT name, partition_key, engine_full FROM system.tables WHERE database = currentDatabase() AND name IN ('spans', 'trace_spans') ORDER BY name",
  );
  const [spans, packed] = tables;
  assert.equal(packed?.partition_key, spans?.partition_key);
  const ttl = (engine: string) => /TTL (.*?) SETTINGS/.exec(engine)?.[1];
  assert.equal(ttl(packed?.engine_full ?? ''), ttl(spans?.engine_full ?? ''));
  assert.match(packed?.engine_full ?? '', /ttl_only_drop_parts = 1/);
  assert.match(packed?.engine_full ?? '', /index_granularity = 256/);
});
