/**
 * Migration 18 (template_hits merges eight parts at a time) on a store that already holds hits:
 * the setting is in place, the hits stored before and after read back the same, merged or not,
 * replayed hits collapse in a merge, and running the migration's statements again changes nothing.
 */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import type { Store } from '../model/store.js';
import { createStore } from './create-store.js';
import { migrate } from './migrate.js';
import { MIGRATIONS } from './migrations/index.js';
import { migration0018 } from './migrations/0018-template-hits-merge-selector.js';
import { insertTemplateHits, type TemplateHitRow } from './template-hits.js';

const dir = mkdtempSync(join(tmpdir(), 'svc-template-hits-selector-'));
let store: Store;

before(async () => {
  store = await createStore({ clickhouse: { url: '', database: 'svc_template_hits_selector' }, embedded: { data_dir: join(dir, 'data') } });
});

after(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

const NOW_NS = BigInt(Date.now() - 60_000) * 1_000_000n;
const ROWS = 500;

function hit(index: number): TemplateHitRow {
  return {
    tsNs: NOW_NS + BigInt(index) * 1_000n,
    templateId: String(1_000 + (index % 7)),
    service: `service-${index % 3}`,
    logId: String(5_000_000 + index),
    traceId: index % 2 === 0 ? (index % 31).toString(16).padStart(32, '0') : '',
    spanId: index % 2 === 0 ? index.toString(16).padStart(16, '0') : '',
    severityNumber: index % 10 === 0 ? 17 : 9,
  };
}

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => hit(from + i));

/** The stored hits digested (each log id once), and the row count with replays still apart. */
async function digest(): Promise<{ rows: string; n: string; h: string }> {
  const [row] = await store.query<{ rows: string; n: string; h: string }>(
    `SELECT (SELECT count() FROM template_hits) AS rows, count() AS n, toString(groupBitXor(cityHash64(*))) AS h
     FROM (SELECT * FROM template_hits ORDER BY log_id LIMIT 1 BY log_id)`,
  );
  return row!;
}

async function engineFull(): Promise<string> {
  const [row] = await store.query<{ engine_full: string }>(
    "SELECT engine_full FROM system.tables WHERE database = currentDatabase() AND name = 'template_hits'",
  );
  return row!.engine_full;
}

it('sets merge_selector_base on template_hits and keeps its hits readable, merged or not', async () => {
  await migrate(
    store,
    MIGRATIONS.filter((m) => m.version < 18),
  );
  await insertTemplateHits(store, range(0, ROWS));
  assert.doesNotMatch(await engineFull(), /merge_selector_base/);

  assert.deepEqual(
    await migrate(store),
    MIGRATIONS.map((m) => m.version).filter((version) => version >= 18),
  );
  const engine = await engineFull();
  assert.match(engine, /merge_selector_base = 8\b/);

  await insertTemplateHits(store, range(ROWS, ROWS));
  // A replay of a fifth of the hits (the log miner's bus delivering them again).
  await insertTemplateHits(store, range(ROWS / 2, ROWS / 5));
  const stored = await digest();
  assert.equal(stored.n, String(2 * ROWS));
  await store.exec('OPTIMIZE TABLE template_hits FINAL');
  assert.deepEqual(await digest(), { ...stored, rows: String(2 * ROWS) });

  // Safe to run again (a second process migrating at once runs the same statements).
  for (const statement of migration0018.optionalStatements ?? []) await store.exec(statement);
  assert.deepEqual(await migrate(store), []);
  assert.equal(await engineFull(), engine);
});
