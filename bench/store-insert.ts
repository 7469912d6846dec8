/**
 * Measures span and log insert throughput through the embedded driver, in batches the writer
 * would send (writer.max_rows = 10000). Prints one figure per line: `npm run bench -- store-insert`.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogRow, SpanRow } from '../src/model/signals.js';
import { ChdbStore } from '../src/store/chdb-store.js';
import { insertLogs } from '../src/testing/store-rows.js';
import { migrate } from '../src/store/migrate.js';
import { insertSpans } from '../src/testing/store-rows.js';

const TOTAL_ROWS = 100_000;
const BATCH_ROWS = 10_000;

function makeSpans(count: number, baseNs: bigint): SpanRow[] {
  return Array.from({ length: count }, (_, i) => {
    const startNs = baseNs + BigInt(i) * 1_000n;
    return {
      traceId: (i >> 4).toString(16).padStart(32, '0'),
      spanId: i.toString(16).padStart(16, '0'),
      parentSpanId: i % 16 === 0 ? '' : (i - 1).toString(16).padStart(16, '0'),
      serviceName: `service-${i % 20}`,
      name: `GET /api/items/{id} ${i % 50}`,
      kind: i % 16 === 0 ? 'server' : 'client',
      startNs,
      endNs: startNs + 2_500_000n,
      status: i % 100 === 0 ? 'error' : 'unset',
      statusMessage: '',
      attrs: Array.from({ length: 10 }, (_, k): [string, string | number] => [`attr.key.${k}`, k % 2 ? k * i : `value-${i}-${k}`]),
      resource: [
        ['service.name', `service-${i % 20}`],
        ['host.name', 'host-1'],
      ],
      events: [],
      scopeName: 'bench',
      scopeVersion: '1.0.0',
    };
  });
}

function makeLogs(count: number, baseNs: bigint): LogRow[] {
  return Array.from({ length: count }, (_, i) => ({
    logId: (BigInt(i) * 2654435761n).toString(),
    tsNs: baseNs + BigInt(i) * 1_000n,
    observedTsNs: baseNs + BigInt(i) * 1_000n,
    traceId: (i >> 4).toString(16).padStart(32, '0'),
    spanId: i.toString(16).padStart(16, '0'),
    serviceName: `service-${i % 20}`,
    severityNumber: 9,
    severityText: 'INFO',
    body: `request ${i} served in ${i % 300} ms for user ${i * 7}`,
    attrs: [
      ['http.status_code', 200],
      ['user.id', `u${i}`],
    ],
    resource: [['service.name', `service-${i % 20}`]],
    scopeName: 'bench',
    scopeVersion: '',
  }));
}

async function timeBatches<T>(rows: T[], insert: (batch: T[]) => Promise<void>): Promise<number> {
  const started = process.hrtime.bigint();
  for (let i = 0; i < rows.length; i += BATCH_ROWS) await insert(rows.slice(i, i + BATCH_ROWS));
  return Number(process.hrtime.bigint() - started) / 1e9;
}

export async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-insert-bench-'));
  const store = await ChdbStore.open(dir, 'svc_bench');
  try {
    await migrate(store);
    const baseNs = BigInt(Date.now() - 60_000) * 1_000_000n;
    const spans = makeSpans(TOTAL_ROWS, baseNs);
    const spanSecs = await timeBatches(spans, (b) => insertSpans(store, b));
    console.log(
      `chdb insertSpans: ${Math.round(TOTAL_ROWS / spanSecs)} spans/s (${TOTAL_ROWS} spans, 10 attrs, batches of ${BATCH_ROWS}, ${spanSecs.toFixed(2)} s)`,
    );
    const logs = makeLogs(TOTAL_ROWS, baseNs);
    const logSecs = await timeBatches(logs, (b) => insertLogs(store, b));
    console.log(`chdb insertLogs: ${Math.round(TOTAL_ROWS / logSecs)} logs/s (${TOTAL_ROWS} logs, batches of ${BATCH_ROWS}, ${logSecs.toFixed(2)} s)`);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
