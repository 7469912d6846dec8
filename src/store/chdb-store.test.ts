/**
 * chDB driver against a real embedded engine. chDB binds one data directory per process, so
 * this file opens one temp directory once and runs the whole shared suite on it.
 */

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../config/config-error.js';
import { ChdbStore } from './chdb-store.js';
import { createStore } from './create-store.js';
import { migrate } from './migrate.js';
import { directoryAttributes, onExtFilesystem } from './dir-attributes.test-support.js';
import { storeSuite } from './store-suite.test-support.js';

const dataDir = join(mkdtempSync(join(tmpdir(), 'svc-store-test-')), 'data (new)');
after(() => rmSync(join(dataDir, '..'), { recursive: true, force: true }));

storeSuite('chdb', () => createStore({ clickhouse: { url: '', database: 'svc_test' }, embedded: { data_dir: dataDir } }));

describe('chdb query options', () => {
  it('plans with the older planner only when asked (quickPlan), and runs in one thread when asked', async () => {
    const store = await ChdbStore.open(dataDir, 'svc_test');
    try {
      const settings = "SELECT toUInt8(getSetting('enable_analyzer')) AS analyzer, toUInt64(getSetting('max_threads')) AS threads";
      const [quick] = await store.query<{ analyzer: number; threads: string }>(settings, {}, { quickPlan: true, singleThread: true });
      assert.equal(Number(quick!.analyzer), 0);
      assert.equal(Number(quick!.threads), 1);
      const [plain] = await store.query<{ analyzer: number; threads: string }>(settings);
      assert.equal(Number(plain!.analyzer), 1);
    } finally {
      await store.close();
    }
  });
});

describe('chdb connections', () => {
  it('runs inserts and statements on one thread each, while reads keep every thread', async () => {
    const store = await ChdbStore.open(dataDir, 'svc_test');
    try {
      // What the writer connection's settings are shows in a table it fills.
      await store.exec('DROP TABLE IF EXISTS writer_threads');
      await store.exec("CREATE TABLE writer_threads ENGINE = MergeTree ORDER BY tuple() AS SELECT toUInt64(getSetting('max_threads')) AS threads");
      const [written] = await store.query<{ threads: string }>('SELECT threads FROM writer_threads');
      assert.equal(Number(written!.threads), 1);
      const [read] = await store.query<{ threads: string }>("SELECT toUInt64(getSetting('max_threads')) AS threads");
      assert.ok(Number(read!.threads) >= Math.min(2, availableParallelism()), `reads run on ${read!.threads} threads`);
      await store.exec('DROP TABLE writer_threads');
    } finally {
      await store.close();
    }
  });
});

describe('chdb table directories', () => {
  it('marks each MergeTree table directory so that its part directories spread over the filesystem', async () => {
    const store = await ChdbStore.open(dataDir, 'svc_test');
    try {
      await migrate(store);
      const rows = await store.query<{ path: string }>(
        "SELECT DISTINCT arrayJoin(data_paths) AS path FROM system.tables WHERE database = currentDatabase() AND engine LIKE '%MergeTree'",
      );
      assert.ok(rows.length >= 10, `tables: ${rows.length}`);
      // Elsewhere than on ext2/3/4 the directories are left as they are, and the migration still succeeds.
      const marks = onExtFilesystem(dataDir);
      for (const { path } of rows) assert.equal(directoryAttributes(path).includes('T'), marks, path);
    } finally {
      await store.close();
    }
  });
});

describe('chdb data directory', () => {
  it('refuses a second process on the same directory with a message naming it', async () => {
    const store = await ChdbStore.open(dataDir, 'svc_test');
    try {
      const module = fileURLToPath(new URL('./chdb-store.js', import.meta.url));
      const script = `import { ChdbStore } from ${JSON.stringify(module)};
        try { await ChdbStore.open(${JSON.stringify(dataDir)}, 'svc_test'); console.log('opened'); }
        catch (e) { console.log(e.name + ': ' + e.message); }`;
      const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { timeout: 60_000 });
      // Found from the engine's lock before the engine is asked (which would print its own exception).
      assert.ok(stdout.startsWith(`ConfigError: embedded.data_dir ${dataDir} is in use by another process (pid ${process.pid}); `), stdout);
    } finally {
      await store.close();
    }
  });

  it('refuses a second data directory in the same process', async () => {
    const store = await ChdbStore.open(dataDir, 'svc_test');
    const other = mkdtempSync(join(tmpdir(), 'svc-store-other-'));
    try {
      await assert.rejects(
        ChdbStore.open(other, 'svc_test'),
        (e: unknown) => e instanceof ConfigError && e.message.startsWith(`embedded.data_dir ${other}: cannot open the embedded database: `),
      );
    } finally {
      await store.close();
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('rejects a database name that is not a plain identifier before touching the engine', async () => {
    await assert.rejects(ChdbStore.open(dataDir, 'svc; DROP TABLE x'), /clickhouse.database must be a plain identifier/);
  });
});
