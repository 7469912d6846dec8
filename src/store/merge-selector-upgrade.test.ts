/**
 * Migration 16 (spans, trace_spans and logs merge eight parts at a time) on a store that already
 * holds spans and logs: the setting is in place on each table, the rows stored before and after read
 * back the same, merged or not, and running the migration's statements again changes nothing.
 */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import type { LogRow, SpanRow } from '../model/signals.js';
import type { Store } from '../model/store.js';
import { numberedLog, numberedSpan } from '../testing/numbered-rows.js';
import { insertLogs, insertSpans } from '../testing/store-rows.js';
import { createStore } from './create-store.js';
import { migrate } from './migrate.js';
import { MIGRATIONS } from './migrations/index.js';
import { MERGE_SELECTOR_TABLES, migration0016 } from './migrations/0016-merge-selector-base.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-merge-selector-'));
let store: Store;

before(async () => {
  store = await createStore({ clickhouse: { url: '', database: 'svc_merge_selector' }, embedded: { data_dir: join(dir, 'data') } });
});

after(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const NOW_NS = BigInt(Date.now() - 60_000) * 1_000_000n;
const ROWS = 500;

const ROW_SHAPE = { nowNs: NOW_NS, traceCount: 31, logIdBase: 2_000_000 };
const span = (index: number): SpanRow => numberedSpan(index, ROW_SHAPE);
const log = (index: number): LogRow => numberedLog(index, ROW_SHAPE);

/** A digest of every stored row of a table (columns as text), one row per key, to compare before and after. */
async function digest(table: string, key: string): Promise<{ n: string; h: string }> {
  const [row] = await store.query<{ n: string; h: string }>(
    `SELECT count() AS n, toString(groupBitXor(cityHash64(*))) AS h FROM (SELECT * FROM ${table} ORDER BY ${key} LIMIT 1 BY ${key})`,
  );
  return row!;
}

const digests = async () => ({
  spans: await digest('spans', 'span_id'),
  traceSpans: await digest('trace_spans', 'span_id'),
  logs: await digest('logs', 'log_id'),
});

async function engineSettings(): Promise<Map<string, string>> {
  const rows = await store.query<{ name: string; engine_full: string }>(
    'SELECT name, engine_full FROM system.tables WHERE database = currentDatabase() AND name IN {tables:Array(String)}',
    { tables: [...MERGE_SELECTOR_TABLES] },
  );
  return new Map(rows.map((row) => [row.name, row.engine_full]));
}

it('sets merge_selector_base on the ingest tables and keeps their rows readable, merged or not', async () => {
  await migrate(
    store,
    MIGRATIONS.filter((m) => m.version < 16),
  );
  const indexes = Array.from({ length: ROWS }, (_, i) => i);
  await insertSpans(store, indexes.map(span));
  await insertLogs(store, indexes.map(log));
  for (const [table, engine] of await engineSettings()) assert.doesNotMatch(engine, /merge_selector_base/, table);

  assert.deepEqual(
    await migrate(store),
    MIGRATIONS.map((m) => m.version).filter((version) => version >= 16),
  );
  const settings = await engineSettings();
  assert.equal(settings.size, MERGE_SELECTOR_TABLES.length);
  for (const [table, engine] of settings) assert.match(engine, /merge_selector_base = 8\b/, table);

  await insertSpans(
    store,
    indexes.map((i) => span(ROWS + i)),
  );
  await insertLogs(
    store,
    indexes.map((i) => log(ROWS + i)),
  );
  const stored = await digests();
  assert.equal(stored.spans.n, String(2 * ROWS));
  assert.equal(stored.traceSpans.n, String(2 * ROWS));
  assert.equal(stored.logs.n, String(2 * ROWS));
  for (const table of MERGE_SELECTOR_TABLES) await store.exec(`OPTIMIZE TABLE ${table} FINAL`);
  assert.deepEqual(await digests(), stored);

  // Safe to run again (a second process migrating at once runs the same statements).
  for (const statement of migration0016.optionalStatements ?? []) await store.exec(statement);
  assert.deepEqual(await migrate(store), []);
  assert.deepEqual(await engineSettings(), settings);
});
