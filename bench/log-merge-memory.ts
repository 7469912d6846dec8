/**
 * The embedded engine's memory during one large merge of the logs table, the largest holder of
 * the engine's memory once a steady load has run for some minutes (the cpu-breakdown run is too
 * short to reach it). The logs table is a ReplacingMergeTree in one sort order (by service since
 * migration 13; before it, a merge also rebuilt a second copy sorted by service, a projection, and
 * gathered up to a million of its rows, every column, before sorting and writing them), merged one
 * column at a time since migration 14. Stores
 * SVC_BENCH_MERGE_LOGS logs (default 1M) in writer-sized batches with merges stopped,
 * then merges them into one part while sampling the engine's own accounting every 50 ms:
 *   - the merge's memory (system.merges) and the engine's tracked total (system.metrics);
 *   - the process's anonymous resident memory (this process holds only the engine and the batch
 *     being inserted at that point).
 * `npm run bench -- log-merge-memory`
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogRow } from '../src/model/signals.js';
import { ChdbStore } from '../src/store/chdb-store.js';
import { migrate } from '../src/store/migrate.js';
import { insertLogs } from '../src/testing/store-rows.js';

const BATCH_ROWS = 10_000;
const SAMPLE_MS = 50;
const MIB = 2 ** 20;

/** Logs shaped like an instrumented service's: a few services, templated bodies, three attributes. */
function makeLogs(count: number, first: number, baseNs: bigint): LogRow[] {
  return Array.from({ length: count }, (_, k) => {
    const i = first + k;
    const tsNs = baseNs + BigInt(i) * 100_000n;
    return {
      logId: (BigInt(i) * 2654435761n + 1n).toString(),
      tsNs,
      observedTsNs: tsNs,
      traceId: (i >> 3).toString(16).padStart(32, '0'),
      spanId: i.toString(16).padStart(16, '0'),
      serviceName: `service-${i % 12}`,
      severityNumber: i % 50 === 0 ? 17 : 9,
      severityText: i % 50 === 0 ? 'ERROR' : 'INFO',
      body: `GET /api/v1/items/${i % 977} answered ${200 + (i % 3)} in ${i % 300} ms for user u${(i * 7) % 5003}`,
      attrs: [
        ['http.status_code', 200 + (i % 3)],
        ['http.route', '/api/v1/items/{id}'],
        ['user.id', `u${(i * 7) % 5003}`],
      ],
      resource: [['service.name', `service-${i % 12}`]],
      scopeName: 'bench',
      scopeVersion: '1.0.0',
    };
  });
}

function anonBytes(): number {
  const kib = /RssAnon:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'));
  return Number(kib?.[1] ?? 0) * 1024;
}

export async function main(): Promise<void> {
  const total = Number(process.env.SVC_BENCH_MERGE_LOGS ?? 1_000_000);
  const dir = mkdtempSync(join(tmpdir(), 'svc-merge-bench-'));
  const store = await ChdbStore.open(dir, 'svc_bench');
  try {
    await migrate(store);
    await store.exec('SYSTEM STOP MERGES logs');
    const baseNs = BigInt(Date.now() - 3_600_000) * 1_000_000n;
    for (let first = 0; first < total; first += BATCH_ROWS) await insertLogs(store, makeLogs(Math.min(BATCH_ROWS, total - first), first, baseNs));
    const [before] = await store.query<{ parts: string; bytes: string }>(
      "SELECT count() AS parts, sum(data_uncompressed_bytes) AS bytes FROM system.parts WHERE database = currentDatabase() AND table = 'logs' AND active",
    );
    let peakMergeBytes = 0;
    let peakTrackedBytes = 0;
    let peakAnonBytes = 0;
    let merging = true;
    const sampler = (async () => {
      while (merging) {
        const [row] = await store.query<{ merge: string | null; tracked: string }>(
          "SELECT (SELECT sum(memory_usage) FROM system.merges WHERE table = 'logs') AS merge, (SELECT value FROM system.metrics WHERE metric = 'MemoryTracking') AS tracked",
        );
        peakMergeBytes = Math.max(peakMergeBytes, Number(row?.merge ?? 0));
        peakTrackedBytes = Math.max(peakTrackedBytes, Number(row?.tracked ?? 0));
        peakAnonBytes = Math.max(peakAnonBytes, anonBytes());
        await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
      }
    })();
    const startedMs = Date.now();
    await store.exec('SYSTEM START MERGES logs');
    await store.exec('OPTIMIZE TABLE logs FINAL');
    const mergeSecs = (Date.now() - startedMs) / 1000;
    merging = false;
    await sampler;
    console.log(
      `log merge memory: ${total} logs in ${before?.parts ?? '?'} parts (${(Number(before?.bytes ?? 0) / MIB).toFixed(0)} MiB uncompressed) merged into one in ${mergeSecs.toFixed(1)} s; at most ${(peakMergeBytes / MIB).toFixed(0)} MiB held by the merge, ${(peakTrackedBytes / MIB).toFixed(0)} MiB tracked by the engine, ${(peakAnonBytes / MIB).toFixed(0)} MiB anonymous resident in the process; load average ${os
        .loadavg()
        .map((load) => load.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
