/**
 * Migration 12 (spans and logs compressed in blocks of at most 64 KiB) on a store that already holds
 * spans and logs written in the engine's larger blocks: the setting is in place, and the rows stored
 * before and after read back the same, also once a merge has rewritten them into one part.
 */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import type { LogRow, SpanRow } from '../model/signals.js';
import type { Store } from '../model/store.js';
import { insertLogs, insertSpans } from '../testing/store-rows.js';
import { createStore } from './create-store.js';
import { migrate } from './migrate.js';
import { MIGRATIONS } from './migrations/index.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-compress-blocks-'));
let store: Store;

before(async () => {
  store = await createStore({ clickhouse: { url: '', database: 'svc_compress_blocks' }, embedded: { data_dir: join(dir, 'data') } });
});

after(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const NOW_NS = BigInt(Date.now() - 60_000) * 1_000_000n;
/** A few thousand rows with varied text, so that a column spans several 64 KiB blocks. */
const ROWS = 3_000;

function span(index: number): SpanRow {
  const startNs = NOW_NS + BigInt(index) * 1_000n;
  return {
    traceId: (index % 97).toString(16).padStart(32, '0'),
    spanId: index.toString(16).padStart(16, '0'),
    parentSpanId: '',
    serviceName: `service-${index % 7}`,
    name: `GET /orders/${index}`,
    kind: 'server',
    startNs,
    endNs: startNs + 5_000n,
    status: 'unset',
    statusMessage: '',
    attrs: [
      ['n', index],
      ['text', `order ${index} for customer ${index * 7919} in region ${index % 13}`],
    ],
    resource: [['service.name', `service-${index % 7}`]],
    events: [],
    scopeName: 'scope',
    scopeVersion: '1.0',
  };
}

function log(index: number): LogRow {
  return {
    logId: String(1_000_000 + index),
    tsNs: NOW_NS + BigInt(index) * 1_000n,
    observedTsNs: NOW_NS + BigInt(index) * 1_000n,
    traceId: '',
    spanId: '',
    serviceName: `service-${index % 7}`,
    severityNumber: 9,
    severityText: 'INFO',
    body: `order ${index} shipped to ${index * 7919} after ${index % 61} ms`,
    attrs: [['n', index]],
    resource: [['service.name', `service-${index % 7}`]],
    scopeName: 'scope',
    scopeVersion: '',
  };
}

/** A digest of every stored span or log (columns as text), to compare before and after. */
async function digest(table: 'spans' | 'logs'): Promise<{ n: string; h: string }> {
  const key = table === 'spans' ? 'span_id' : 'log_id';
  const [row] = await store.query<{ n: string; h: string }>(
    `SELECT count() AS n, toString(groupBitXor(cityHash64(*))) AS h FROM (SELECT * FROM ${table} ORDER BY ${key} LIMIT 1 BY ${key})`,
  );
  return row!;
}

it('keeps spans and logs stored in larger blocks readable, merged or not, and compresses new parts in 64 KiB blocks', async () => {
  await migrate(
    store,
    MIGRATIONS.filter((m) => m.version < 12),
  );
  const indexes = Array.from({ length: ROWS }, (_, i) => i);
  await insertSpans(store, indexes.map(span));
  await insertLogs(store, indexes.map(log));
  assert.deepEqual(
    await migrate(
      store,
      MIGRATIONS.filter((m) => m.version <= 12),
    ),
    [12],
  );
  const settings = await store.query<{ name: string; engine_full: string }>(
    "SELECT name, engine_full FROM system.tables WHERE database = currentDatabase() AND name IN ('spans', 'logs') ORDER BY name",
  );
  for (const table of settings) assert.match(table.engine_full, /max_compress_block_size = 65536/, table.name);

  await insertSpans(
    store,
    indexes.map((i) => span(ROWS + i)),
  );
  await insertLogs(
    store,
    indexes.map((i) => log(ROWS + i)),
  );
  const before = { spans: await digest('spans'), logs: await digest('logs') };
  assert.equal(before.spans.n, String(2 * ROWS));
  assert.equal(before.logs.n, String(2 * ROWS));
  for (const table of ['spans', 'logs'] as const) await store.exec(`OPTIMIZE TABLE ${table} FINAL`);
  const parts = await store.query<{ table: string; n: string }>(
    "SELECT table, count() AS n FROM system.parts WHERE database = currentDatabase() AND table IN ('spans', 'logs') AND active GROUP BY table ORDER BY table",
  );
  assert.deepEqual(
    parts.map((p) => [p.table, p.n]),
    [
      ['logs', '1'],
      ['spans', '1'],
    ],
  );
  assert.deepEqual({ spans: await digest('spans'), logs: await digest('logs') }, before);
});
