/**
 * The migration runner against real chDB: optional statements (a feature only newer ClickHouse
 * servers have) that the engine refuses are reported and the migration is recorded; a refused
 * required statement, or an optional one that never reached the engine, stops it unrecorded.
 */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Store } from '../model/store.js';
import { createStore } from './create-store.js';
import { appliedVersions, migrate, type SkippedStatement } from './migrate.js';
import type { Migration } from './migrations/migration.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-migrate-'));
let store: Store;

before(async () => {
  store = await createStore({ clickhouse: { url: '', database: 'svc_migrate' }, embedded: { data_dir: join(dir, 'data') } });
});

after(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const TABLE: Migration = {
  version: 1,
  name: 'table',
  statements: ['CREATE TABLE IF NOT EXISTS things (id UInt64, body String) ENGINE = MergeTree ORDER BY id'],
};
/** An index type no ClickHouse has stands for one an older server lacks. */
const UNKNOWN_INDEX = 'ALTER TABLE things ADD INDEX IF NOT EXISTS idx_future body TYPE no_such_index_type GRANULARITY 1';
const KNOWN_INDEX = 'ALTER TABLE things ADD INDEX IF NOT EXISTS idx_body body TYPE bloom_filter GRANULARITY 1';

async function indexNames(): Promise<string[]> {
  const rows = await store.query<{ name: string }>(
    "SELECT name FROM system.data_skipping_indices WHERE database = currentDatabase() AND table = 'things' ORDER BY name",
  );
  return rows.map((r) => r.name);
}

describe('migrate with optional statements', () => {
  it('reports an optional statement the engine refuses, runs the others and records the migration', async () => {
    const skipped: SkippedStatement[] = [];
    const optional: Migration = { version: 2, name: 'optional-index', statements: [], optionalStatements: [UNKNOWN_INDEX, KNOWN_INDEX] };
    assert.deepEqual(await migrate(store, [TABLE, optional], 1, (s) => skipped.push(s)), [1, 2]);
    assert.equal(skipped.length, 1);
    assert.deepEqual({ ...skipped[0], code: undefined }, { version: 2, name: 'optional-index', statement: UNKNOWN_INDEX, code: undefined });
    assert.ok(Number.isInteger(skipped[0]?.code) && (skipped[0]?.code ?? 0) > 0, 'the engine error code');
    assert.deepEqual(await indexNames(), ['idx_body']);
    assert.deepEqual(await appliedVersions(store), [1, 2]);
    assert.deepEqual(await migrate(store, [TABLE, optional], 2, (s) => skipped.push(s)), [], 'a recorded migration is not run again');
    assert.equal(skipped.length, 1);
  });

  it('stops unrecorded when a required statement is refused, so the next run tries it again', async () => {
    const required: Migration = { version: 3, name: 'required-index', statements: [UNKNOWN_INDEX] };
    await assert.rejects(migrate(store, [TABLE, required], 3), /ClickHouse code \d+/);
    assert.deepEqual(await appliedVersions(store), [1, 2]);
  });

  it('stops unrecorded when an optional statement never reached the engine', async () => {
    // The store itself for everything else (its methods live on its prototype).
    const unreachable: Store = Object.assign(Object.create(store) as Store, {
      exec: async (sql: string, params?: Parameters<Store['exec']>[1]) => {
        if (sql.includes('idx_later')) throw new Error('connect ECONNREFUSED 127.0.0.1:8123');
        return store.exec(sql, params);
      },
    });
    const later: Migration = {
      version: 4,
      name: 'later-index',
      statements: [],
      optionalStatements: ['ALTER TABLE things ADD INDEX IF NOT EXISTS idx_later body TYPE bloom_filter GRANULARITY 1'],
    };
    const skipped: SkippedStatement[] = [];
    await assert.rejects(
      migrate(unreachable, [TABLE, later], 4, (s) => skipped.push(s)),
      /ECONNREFUSED/,
    );
    assert.deepEqual(skipped, []);
    assert.deepEqual(await appliedVersions(store), [1, 2]);
    assert.deepEqual(await migrate(store, [TABLE, later], 5), [4], 'the next run adds it');
    assert.deepEqual(await indexNames(), ['idx_body', 'idx_later']);
  });
});
