/**
 * Migration 5's projection of the logs table (sorted by service, time, log id) against real chDB:
 * the data dir first holds logs under the schema before it, is upgraded, and gets more logs and
 * replays; reads through the projection must then give exactly what the table's own order gives,
 * for logs from before and after the upgrade, and again after a merge has collapsed the replays.
 * Stores at versions 5 to 12 keep the projection until migration 13 rebuilds the table in its order.
 */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { LogRow } from '../model/signals.js';
import type { Store } from '../model/store.js';
import { until } from '../testing/sdk-trace.js';
import { at } from '../util/at.js';
import { createStore } from './create-store.js';
import { insertLogs } from '../testing/store-rows.js';
import { migrate } from './migrate.js';
import { MIGRATIONS } from './migrations/index.js';

const NOW_NS = BigInt(Date.now()) * 1_000_000n;
const SECOND_NS = 1_000_000_000n;
const SERVICES = ['checkout', 'billing', 'search'];

let seq = 0;
/** A log `secondsAgo` before now; services, severities and trace context vary with the sequence. */
function log(secondsAgo: number): LogRow {
  seq += 1;
  const service = at(SERVICES, seq % SERVICES.length);
  return {
    logId: String(9_000_000 + seq * 7919),
    tsNs: NOW_NS - BigInt(secondsAgo) * SECOND_NS,
    observedTsNs: NOW_NS,
    traceId: seq % 3 === 0 ? (seq * 104_729).toString(16).padStart(32, '0') : '',
    spanId: seq % 3 === 0 ? (seq * 31).toString(16).padStart(16, '0') : '',
    serviceName: service,
    severityNumber: at([9, 13, 17], seq % 4 === 0 ? 2 : seq % 2),
    severityText: '',
    body: `line ${seq} of ${service}`,
    attrs: [['n', seq]],
    resource: [['service.name', service]],
    scopeName: '',
    scopeVersion: '',
  };
}

const BEFORE_UPGRADE = Array.from({ length: 300 }, (_, i) => log(i * 7));
const AFTER_UPGRADE = Array.from({ length: 300 }, (_, i) => log(i * 5 + 3));

const dir = mkdtempSync(join(tmpdir(), 'svc-log-projection-'));
const settings = { clickhouse: { url: '', database: 'svc_log_projection' }, embedded: { data_dir: join(dir, 'data') } };
let store: Store;
let upgradeApplied: number[] = [];

before(async () => {
  const oldStore = await createStore(settings);
  await migrate(
    oldStore,
    MIGRATIONS.filter((m) => m.version < 5),
  );
  await insertLogs(oldStore, BEFORE_UPGRADE.slice(0, 150));
  await insertLogs(oldStore, BEFORE_UPGRADE.slice(150));
  await oldStore.close();

  store = await createStore(settings);
  // Up to migration 13, which rebuilds the table sorted by service without the projection.
  upgradeApplied = await migrate(
    store,
    MIGRATIONS.filter((m) => m.version < 13),
  );
  await insertLogs(store, AFTER_UPGRADE);
  // Replays of lines from before and after the upgrade, in a part of their own.
  await insertLogs(store, [...BEFORE_UPGRADE.slice(0, 40), ...AFTER_UPGRADE.slice(0, 40)]);
});

after(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Active parts of the logs table, and how many of them carry the projection. */
async function projectionCoverage(): Promise<{ parts: number; projected: number }> {
  const [row = { parts: '0', projected: '0' }] = await store.query<{ parts: string; projected: string }>(
    `SELECT
       (SELECT count() FROM system.parts WHERE database = currentDatabase() AND table = 'logs' AND active) AS parts,
       (SELECT count() FROM system.projection_parts WHERE database = currentDatabase() AND table = 'logs' AND name = 'p_service_time' AND active) AS projected`,
  );
  return { parts: Number(row.parts), projected: Number(row.projected) };
}

/** The same read through the table's own order and forced through the projection. */
async function bothWays<T>(select: string): Promise<{ table: T[]; projection: T[] }> {
  const table = await store.query<T>(`SELECT * FROM (${select} SETTINGS optimize_use_projections = 0)`);
  const projection = await store.query<T>(`SELECT * FROM (${select} SETTINGS force_optimize_projection_name = 'p_service_time')`);
  return { table, projection };
}

const READS = [
  // What the series counts: distinct logs per service and severity.
  'SELECT service_name, severity_number, uniqExact(log_id) AS n, count() AS stored FROM logs GROUP BY service_name, severity_number ORDER BY service_name, severity_number',
  // What a page of the search lists: one service, newest first, every column.
  "SELECT toString(log_id) AS lid, ts_ns, severity_number, body, trace_id, span_id, attrs, resource FROM logs WHERE service_name = 'billing' ORDER BY ts_ns DESC, log_id DESC LIMIT 1 BY log_id LIMIT 50",
];

describe('migration 5 on an existing data dir', () => {
  it('adds the projection sorted by service, time and log id, and builds it for the parts written before it', async () => {
    // Every migration from 5 to 12 runs on the old data dir.
    assert.deepEqual(
      upgradeApplied,
      MIGRATIONS.map((migration) => migration.version).filter((version) => version >= 5 && version < 13),
    );
    const [projection] = await store.query<{ sorting_key: string[] }>(
      "SELECT sorting_key FROM system.projections WHERE database = currentDatabase() AND table = 'logs' AND name = 'p_service_time'",
    );
    assert.deepEqual(projection?.sorting_key, ['service_name', 'ts_ns', 'log_id']);
    // MATERIALIZE runs in the background: wait until every part carries the projection.
    await until(
      'the projection in every part',
      async () => {
        const coverage = await projectionCoverage();
        return coverage.parts > 0 && coverage.projected === coverage.parts ? coverage : undefined;
      },
      60_000,
    );
  });

  it('reads through the projection exactly what the table holds, replays included, before and after they merge away', async () => {
    await until(
      'the projection in every part',
      async () => {
        const coverage = await projectionCoverage();
        return coverage.projected === coverage.parts ? true : undefined;
      },
      60_000,
    );
    for (const select of READS) {
      const { table, projection } = await bothWays<Record<string, unknown>>(select);
      assert.ok(table.length > 0, select);
      assert.deepEqual(projection, table, select);
    }
    const stored = (rows: { stored: string }[]) => rows.reduce((sum, r) => sum + Number(r.stored), 0);
    assert.equal(
      stored((await bothWays<{ stored: string }>(at(READS, 0))).projection),
      BEFORE_UPGRADE.length + AFTER_UPGRADE.length + 80,
      'replays are stored until a merge',
    );

    // A merge collapses the replays; with deduplicate_merge_projection_mode = 'rebuild' the
    // projection is rebuilt from the merged rows, so it drops them too.
    await store.exec('OPTIMIZE TABLE logs FINAL');
    for (const select of READS) {
      const { table, projection } = await bothWays<Record<string, unknown>>(select);
      assert.deepEqual(projection, table, select);
    }
    assert.equal(stored((await bothWays<{ stored: string }>(at(READS, 0))).projection), BEFORE_UPGRADE.length + AFTER_UPGRADE.length);
  });

  it('plans a service search on the projection', async () => {
    const plan = await store.query<{ explain: string }>(
      "EXPLAIN SELECT toString(log_id), ts_ns, body FROM logs WHERE service_name = 'billing' AND ts_ns >= {from_ns:Int64} ORDER BY ts_ns DESC, log_id DESC LIMIT 10",
      { from_ns: NOW_NS - 3600n * SECOND_NS },
    );
    assert.match(plan.map((line) => line.explain).join('\n'), /ReadFromMergeTree \(p_service_time\)/);
  });
});
