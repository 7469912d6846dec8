/**
 * Migration 17 (every merge of spans and logs into a wide part runs column by column) on a store
 * that already holds spans and logs: the engine's own log shows its merges of a few hundred rows
 * chosen horizontal before and vertical after; replayed spans and logs still collapse in those
 * merges; the rows stored before and after read back the same; running the statements again
 * changes nothing.
 * The engine writes its log to a file here because the first connection on a directory sets the
 * engine's server settings for the process (this test file runs in a process of its own). The
 * tables write wide parts from the first byte (min_bytes_for_wide_part = 0), as the engine merges
 * only wide parts vertically and the test's parts are small.
 */

import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { Session } from 'chdb';
import type { LogRow, SpanRow } from '../model/signals.js';
import type { Store } from '../model/store.js';
import { numberedLog, numberedSpan } from '../testing/numbered-rows.js';
import { insertLogs, insertSpans } from '../testing/store-rows.js';
import { createStore } from './create-store.js';
import { migrate } from './migrate.js';
import { MIGRATIONS } from './migrations/index.js';
import { migration0017, VERTICAL_MERGE_TABLES } from './migrations/0017-vertical-merges.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-vertical-merges-'));
const dataDir = join(dir, 'data');
const engineLog = join(dir, 'engine.log');
let engineSettings: Session;
let store: Store;

before(async () => {
  mkdirSync(dataDir);
  engineSettings = new Session(dataDir, { connectionArgs: ['--logger.level=debug', `--logger.log=${engineLog}`] });
  store = await createStore({ clickhouse: { url: '', database: 'svc_vertical_merges' }, embedded: { data_dir: dataDir } });
});

after(async () => {
  await store?.close();
  engineSettings?.close();
  rmSync(dir, { recursive: true, force: true });
});

const NOW_NS = BigInt(Date.now() - 60_000) * 1_000_000n;
const ROWS = 400;

const ROW_SHAPE = { nowNs: NOW_NS, traceCount: 29, logIdBase: 3_000_000 };
const span = (index: number): SpanRow => numberedSpan(index, ROW_SHAPE);
const log = (index: number): LogRow => numberedLog(index, ROW_SHAPE);

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

async function storeBatch(indexes: number[]): Promise<void> {
  await insertSpans(store, indexes.map(span));
  await insertLogs(store, indexes.map(log));
}

/** Every stored row of a table (columns as text) digested, and the row count with replays still apart. */
async function digest(table: string, key: string): Promise<{ rows: string; n: string; h: string }> {
  const [row] = await store.query<{ rows: string; n: string; h: string }>(
    `SELECT (SELECT count() FROM ${table}) AS rows, count() AS n, toString(groupBitXor(cityHash64(*))) AS h FROM (SELECT * FROM ${table} ORDER BY ${key} LIMIT 1 BY ${key})`,
  );
  return row!;
}

const digests = async () => ({ spans: await digest('spans', 'span_id'), logs: await digest('logs', 'log_id') });

async function tableSettings(): Promise<Map<string, string>> {
  const rows = await store.query<{ name: string; engine_full: string }>(
    'SELECT name, engine_full FROM system.tables WHERE database = currentDatabase() AND name IN {tables:Array(String)}',
    { tables: [...VERTICAL_MERGE_TABLES] },
  );
  return new Map(rows.map((row) => [row.name, row.engine_full]));
}

/** Merges every table's parts into one and returns the algorithm the engine logged for each table's merge. */
async function mergeAll(): Promise<Map<string, string>> {
  const uuids = await store.query<{ name: string; uuid: string }>(
    'SELECT name, toString(uuid) AS uuid FROM system.tables WHERE database = currentDatabase() AND name IN {tables:Array(String)}',
    { tables: [...VERTICAL_MERGE_TABLES] },
  );
  const logged = existsSync(engineLog) ? readFileSync(engineLog, 'utf8').length : 0;
  for (const table of VERTICAL_MERGE_TABLES) await store.exec(`OPTIMIZE TABLE ${table} FINAL`);
  // A merge's lines carry `{<table uuid>::<part>}`; the engine may write its log a little later.
  const algorithms = new Map<string, string>();
  while (algorithms.size < uuids.length) {
    const text = existsSync(engineLog) ? readFileSync(engineLog, 'utf8').slice(logged) : '';
    for (const { name, uuid } of uuids) {
      const chosen = new RegExp(`\\{${uuid}::[^}]*\\}.*Selected MergeAlgorithm: (\\w+)`).exec(text);
      if (chosen !== null) algorithms.set(name, chosen[1]!);
    }
    if (algorithms.size < uuids.length) await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return algorithms;
}

it('merges spans and logs column by column once migrated, collapsing replays and keeping every row', async () => {
  await migrate(
    store,
    MIGRATIONS.filter((m) => m.version < 17),
  );
  for (const table of VERTICAL_MERGE_TABLES) await store.exec(`ALTER TABLE ${table} MODIFY SETTING min_bytes_for_wide_part = 0`);
  await storeBatch(range(0, ROWS));
  await storeBatch(range(ROWS, ROWS));
  for (const [table, engine] of await tableSettings()) assert.doesNotMatch(engine, /vertical_merge_algorithm_min_rows_to_activate/, table);
  assert.deepEqual(await mergeAll(), new Map(VERTICAL_MERGE_TABLES.map((table) => [table, 'Horizontal'])));

  assert.deepEqual(
    await migrate(store),
    MIGRATIONS.map((m) => m.version).filter((version) => version >= 17),
  );
  const settings = await tableSettings();
  assert.equal(settings.size, VERTICAL_MERGE_TABLES.length);
  for (const [table, engine] of settings) {
    assert.match(engine, /vertical_merge_algorithm_min_rows_to_activate = 1\b/, table);
    assert.match(engine, /vertical_merge_algorithm_min_columns_to_activate = 1\b/, table);
  }

  // New rows, and a replay of a quarter of the stored ones (the bus delivering them again).
  await storeBatch(range(2 * ROWS, ROWS));
  await storeBatch(range(ROWS / 2, ROWS / 4));
  const stored = await digests();
  assert.equal(stored.spans.n, String(3 * ROWS));
  assert.equal(stored.logs.n, String(3 * ROWS));
  assert.equal(await mergeAll().then((algorithms) => [...algorithms.values()].join()), VERTICAL_MERGE_TABLES.map(() => 'Vertical').join());
  // Merged, each replayed row is stored once (the engine may have merged some parts before).
  assert.deepEqual(await digests(), {
    spans: { ...stored.spans, rows: String(3 * ROWS) },
    logs: { ...stored.logs, rows: String(3 * ROWS) },
  });

  // Safe to run again (a second process migrating at once runs the same statements).
  for (const statement of migration0017.statements) await store.exec(statement);
  assert.deepEqual(await migrate(store), []);
  assert.deepEqual(await tableSettings(), settings);
});
