/**
 * Migration 13 (the logs table rebuilt sorted by service, time and log id) against real chDB, on
 * stores built at version 12 that hold logs in several day partitions, replays and template hits:
 * - every read of the logs routes answers the same before and after it, and logs written after it
 *   (replays too) are read back and collapsed by a merge;
 * - a run stopped at any step (a half copy, a swap without the drop, the drop without the record)
 *   completes on the next one without losing or doubling a log;
 * - a fresh store ends with the same table as a migrated one (migration 14's merge setting included).
 */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { LogRow } from '../model/signals.js';
import type { Store } from '../model/store.js';
import { insertLogs } from '../testing/store-rows.js';
import { at } from '../util/at.js';
import { createStore } from './create-store.js';
import { getTraceLogs } from './logs.js';
import { migrate, type MigrationProgress } from './migrate.js';
import { MIGRATIONS } from './migrations/index.js';
import { addBodyWords, createLogsTable, LOGS_REBUILT, LOGS_SORTING_KEY, migration0013 } from './migrations/0013-logs-by-service.js';
import { countLogs, searchLogs, type LogCursor, type LogSearchFilter } from './reads/log-search.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-logs-by-service-'));
const dataDir = join(dir, 'data');
let open: Store | undefined;

after(async () => {
  await open?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Opens the data dir on `database`, closing the store opened before (one data dir per process). */
async function openStore(database: string): Promise<Store> {
  await open?.close();
  open = await createStore({ clickhouse: { url: '', database }, embedded: { data_dir: dataDir } });
  return open;
}

const SECOND_NS = 1_000_000_000n;
const NOW_NS = BigInt(Date.now()) * 1_000_000n;
const SERVICES = ['checkout', 'billing', 'search'];
const WORDS = ['shipped', 'declined', 'timeout'];
const TEMPLATE_ID = '4242';

let seq = 0;
/** A log `secondsAgo` before now; services, severities, words and trace context vary with the sequence. */
function log(secondsAgo: number): LogRow {
  seq += 1;
  const service = at(SERVICES, seq % SERVICES.length);
  return {
    logId: String(7_000_000 + seq * 7919),
    tsNs: NOW_NS - BigInt(secondsAgo) * SECOND_NS,
    observedTsNs: NOW_NS,
    traceId: seq % 4 === 0 ? (seq % 5).toString(16).padStart(32, '0') : '',
    spanId: seq % 4 === 0 ? seq.toString(16).padStart(16, '0') : '',
    serviceName: service,
    severityNumber: at([9, 13, 17], seq % 3),
    severityText: '',
    body: `order ${seq} ${at(WORDS, seq % WORDS.length)} by ${service}`,
    attrs: [['n', seq]],
    resource: [['service.name', service]],
    scopeName: '',
    scopeVersion: '',
  };
}

/** Logs over the last 40 hours, so in two or three day partitions. */
const STORED = Array.from({ length: 400 }, (_, i) => log(i * 360));
/** The day partitions STORED falls in. */
const PARTITIONS = new Set(STORED.map((l) => new Date(Number(l.tsNs / 1_000_000n)).toISOString().slice(0, 10))).size;
/** Replays, in a part of their own. */
const REPLAYED = STORED.slice(0, 60);

/** A store at version 12 holding STORED, REPLAYED and the template hits of every tenth log. */
async function storeAtVersion12(database: string): Promise<Store> {
  const store = await openStore(database);
  assert.equal(
    (
      await migrate(
        store,
        MIGRATIONS.filter((m) => m.version < 13),
      )
    ).length,
    12,
  );
  await insertLogs(store, STORED.slice(0, 200));
  await insertLogs(store, STORED.slice(200));
  await insertLogs(store, REPLAYED);
  const hits = STORED.filter((_, i) => i % 10 === 0);
  await store.insert(
    'template_hits',
    ['ts_ns', 'template_id', 'service', 'log_id', 'trace_id', 'span_id', 'severity_number'],
    hits.map((l) => [l.tsNs, TEMPLATE_ID, l.serviceName, l.logId, l.traceId, l.spanId, l.severityNumber]),
  );
  return store;
}

const WINDOW = { fromNs: NOW_NS - 3n * 86_400n * SECOND_NS + 3600n * SECOND_NS, toNs: NOW_NS + 60n * SECOND_NS };
const FILTERS: LogSearchFilter[] = [
  { ...WINDOW, words: [] },
  { ...WINDOW, words: [], service: 'billing' },
  { ...WINDOW, words: ['declined'] },
  { ...WINDOW, words: ['declined'], service: 'billing' },
  { ...WINDOW, words: ['order', 'timeout'], service: 'search', minSeverity: 13 },
  { ...WINDOW, words: [], traceId: (2).toString(16).padStart(32, '0') },
  { ...WINDOW, words: ['shipped'], traceId: (3).toString(16).padStart(32, '0') },
  { ...WINDOW, words: [], templateId: TEMPLATE_ID },
  { ...WINDOW, words: ['timeout'], templateId: TEMPLATE_ID, service: 'checkout' },
  { fromNs: NOW_NS - 20n * 3600n * SECOND_NS, toNs: NOW_NS - 10n * 3600n * SECOND_NS, words: [], service: 'search' },
];

/** Every page of a search, 17 rows a page, following the cursors. */
async function allPages(store: Store, filter: LogSearchFilter): Promise<unknown[]> {
  const pages: unknown[] = [];
  let cursor: LogCursor | undefined;
  for (let page = 0; page < 100; page++) {
    const { rows, more } = await searchLogs(store, filter, cursor, 17, {});
    pages.push(rows);
    const last = rows[rows.length - 1];
    if (!more || last === undefined) break;
    cursor = { tsNs: last.ts_ns, logId: last.log_id };
  }
  return pages;
}

/** What the logs routes read: search pages, series counts per filter, and a trace's logs. */
async function readEverything(store: Store): Promise<unknown> {
  const reads: unknown[] = [];
  for (const filter of FILTERS) {
    const counts = await countLogs(store, filter, 3600, {});
    counts.sort((a, b) => a.bucket - b.bucket || a.level.localeCompare(b.level));
    reads.push({ pages: await allPages(store, filter), counts });
  }
  for (let trace = 0; trace < 5; trace++) reads.push(await getTraceLogs(store, trace.toString(16).padStart(32, '0')));
  return reads;
}

/** Rows stored (replays included until merged) and distinct logs. */
async function stored(store: Store): Promise<{ rows: number; logs: number }> {
  const [row] = await store.query<{ rows: string; logs: string }>('SELECT count() AS rows, uniqExact(log_id) AS logs FROM logs');
  return { rows: Number(row?.rows), logs: Number(row?.logs) };
}

async function tableNames(store: Store): Promise<string[]> {
  const rows = await store.query<{ name: string }>("SELECT name FROM system.tables WHERE database = currentDatabase() AND name LIKE 'logs%' ORDER BY name");
  return rows.map((r) => r.name);
}

/** The logs table's statement without its database's name. */
async function logsStatement(store: Store): Promise<string> {
  const [row] = await store.query<{ statement: string }>('SHOW CREATE TABLE logs');
  return (row?.statement ?? '').replace(/^CREATE TABLE \S+\.logs/, 'CREATE TABLE logs');
}

const CONTEXT = { optional: async (statement: string) => open?.exec(statement), progress: () => {} };

describe('migration 13 on a store built at version 12', () => {
  let migratedStatement = '';

  it('rebuilds the logs table sorted by service with the same answers, and reports each partition copied', async () => {
    const store = await storeAtVersion12('svc_logs_upgrade');
    const before = await readEverything(store);
    assert.deepEqual(await stored(store), { rows: STORED.length + REPLAYED.length, logs: STORED.length });
    const progress: MigrationProgress[] = [];
    assert.deepEqual(
      await migrate(
        store,
        MIGRATIONS.filter((m) => m.version <= 13),
        undefined,
        undefined,
        (p) => progress.push(p),
      ),
      [13],
    );
    assert.ok(PARTITIONS >= 2);
    assert.deepEqual(
      progress.map((p) => [p.version, p.fields.partitionsDone, p.fields.partitions]),
      Array.from({ length: PARTITIONS }, (_, i) => [13, i + 1, PARTITIONS]),
    );
    assert.equal(progress.at(-1)?.fields.rowsDone, STORED.length + REPLAYED.length);

    const [table] = await store.query<{ key: string }>("SELECT sorting_key AS key FROM system.tables WHERE database = currentDatabase() AND name = 'logs'");
    assert.equal(table?.key, LOGS_SORTING_KEY);
    const indexes = await store.query<{ name: string }>(
      "SELECT name FROM system.data_skipping_indices WHERE database = currentDatabase() AND table = 'logs' ORDER BY name",
    );
    assert.deepEqual(
      indexes.map((i) => i.name),
      ['idx_body_ngram_g4', 'idx_body_words', 'idx_log_id', 'idx_severity', 'idx_trace_id', 'idx_ts_ns'],
    );
    const [projections] = await store.query<{ n: string }>("SELECT count() AS n FROM system.projections WHERE database = currentDatabase() AND table = 'logs'");
    assert.equal(Number(projections?.n), 0, 'no copy sorted by service: the table is');
    assert.deepEqual(await tableNames(store), ['logs']);
    assert.deepEqual(await readEverything(store), before);

    // Migration 14 sets the table's merges to write one column at a time; later ones run too.
    assert.deepEqual(
      await migrate(store),
      MIGRATIONS.map((m) => m.version).filter((version) => version > 13),
    );
    migratedStatement = await logsStatement(store);
    assert.match(migratedStatement, /vertical_merge_algorithm_min_columns_to_activate = 1/);
    assert.deepEqual(await readEverything(store), before);
  });

  it('stores, reads and collapses the logs written after it, replays included', async () => {
    const store = open as Store;
    const later = Array.from({ length: 120 }, (_, i) => log(i * 30 + 5));
    await insertLogs(store, later);
    await insertLogs(store, [...later.slice(0, 30), ...STORED.slice(100, 130)]);
    // The copy may have collapsed the replays of before; those of the last insert are stored until a merge.
    const afterInserts = await stored(store);
    assert.equal(afterInserts.logs, STORED.length + later.length);
    assert.ok(afterInserts.rows >= afterInserts.logs + 60, `${afterInserts.rows} rows`);
    const newest = await searchLogs(store, { ...WINDOW, words: [] }, undefined, 1000, {});
    assert.equal(newest.rows.length, STORED.length + later.length);
    assert.equal(new Set(newest.rows.map((r) => r.log_id)).size, newest.rows.length, 'every log listed once');
    const counted = (await countLogs(store, { ...WINDOW, words: [] }, 3600, {})).reduce((sum, c) => sum + c.n, 0);
    assert.equal(counted, STORED.length + later.length);
    const traced = later.find((l) => l.traceId !== '') as LogRow;
    assert.ok((await getTraceLogs(store, traced.traceId)).some((l) => l.logId === traced.logId));

    const before = await readEverything(store);
    await store.exec('OPTIMIZE TABLE logs FINAL');
    assert.deepEqual(await stored(store), { rows: STORED.length + later.length, logs: STORED.length + later.length }, 'a merge collapses replays');
    assert.deepEqual(await readEverything(store), before);
  });

  it('gives a fresh store the same logs table', async () => {
    const store = await openStore('svc_logs_fresh');
    await migrate(store);
    assert.equal(await logsStatement(store), migratedStatement);
    assert.deepEqual(await tableNames(store), ['logs']);
  });
});

describe('migration 13 stopped part way', () => {
  /** The reads of a store at version 12 with the fixture, then the store. */
  async function prepared(database: string): Promise<{ store: Store; before: unknown }> {
    const store = await storeAtVersion12(database);
    return { store, before: await readEverything(store) };
  }

  /** Runs the migration again and checks it completed: same answers, every row kept once or as a replay, one table. */
  async function completes(store: Store, before: unknown): Promise<void> {
    assert.deepEqual(
      await migrate(store),
      MIGRATIONS.map((m) => m.version).filter((version) => version >= 13),
    );
    assert.deepEqual(await tableNames(store), ['logs']);
    const [table] = await store.query<{ key: string }>("SELECT sorting_key AS key FROM system.tables WHERE database = currentDatabase() AND name = 'logs'");
    assert.equal(table?.key, LOGS_SORTING_KEY);
    assert.equal((await stored(store)).logs, STORED.length);
    assert.deepEqual(await readEverything(store), before);
    await store.exec('OPTIMIZE TABLE logs FINAL');
    assert.deepEqual(await stored(store), { rows: STORED.length, logs: STORED.length });
  }

  it('during the copy: a half-filled partition and one of the old order are replaced', async () => {
    const { store, before } = await prepared('svc_logs_stopped_copy');
    await store.exec(createLogsTable(LOGS_REBUILT));
    const [first] = await store.query<{ id: string }>(
      "SELECT min(partition_id) AS id FROM system.parts WHERE database = currentDatabase() AND table = 'logs' AND active",
    );
    await store.exec(`INSERT INTO ${LOGS_REBUILT} SELECT * FROM logs WHERE _partition_id = {id:String} LIMIT 25`, { id: first?.id ?? '' });
    await completes(store, before);
  });

  it('copies after the swap what another process wrote to the old table during the copy, and the rest once', async () => {
    const { store } = await prepared('svc_logs_written_during_copy');
    const late = Array.from({ length: 50 }, (_, i) => log(i * 1800 + 7));
    // The old table gets a batch just before the swap, after every partition was copied.
    const writing: Store = Object.create(store) as Store;
    writing.exec = async (sql, params) => {
      if (sql.startsWith('EXCHANGE TABLES')) await insertLogs(store, late);
      return store.exec(sql, params);
    };
    assert.deepEqual(
      await migrate(writing),
      MIGRATIONS.map((m) => m.version).filter((version) => version >= 13),
    );
    assert.deepEqual(await tableNames(store), ['logs']);
    const after = await stored(store);
    assert.equal(after.logs, STORED.length + late.length);
    assert.ok(after.rows <= STORED.length + REPLAYED.length + late.length, `${after.rows} rows: the copied partitions were not copied again`);
    const listed = await searchLogs(store, { ...WINDOW, words: [] }, undefined, 1000, {});
    assert.deepEqual(new Set(listed.rows.map((r) => r.log_id)), new Set([...STORED, ...late].map((l) => l.logId)));
  });

  it('after the swap, before the old table was dropped', async () => {
    const { store, before } = await prepared('svc_logs_stopped_swap');
    await store.exec(createLogsTable(LOGS_REBUILT));
    await store.exec(addBodyWords(LOGS_REBUILT));
    await store.exec(`INSERT INTO ${LOGS_REBUILT} SELECT * FROM logs`);
    await store.exec(`EXCHANGE TABLES logs AND ${LOGS_REBUILT}`);
    await completes(store, before);
  });

  it('after the drop, before the migration was recorded', async () => {
    const { store, before } = await prepared('svc_logs_stopped_drop');
    await migration0013.run?.(store, CONTEXT);
    await completes(store, before);
  });
});
