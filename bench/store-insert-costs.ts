/**
 * What each of the logs table's additions costs per inserted log: the same 10k-log batches go, in
 * turn, into the logs table as migrated and into copies of it with one addition dropped (the
 * trace-id bloom filter, the text index over the words, the n-gram index, the log-id bloom
 * filter), and into template_hits (the logminer's one row per log line). The CPU of every thread
 * of this process during each insert, medians over the rounds, as µs per row. Background merges
 * come later and are not counted here (the cpu-breakdown bench counts them).
 *   SVC_BENCH_INSERT_ROUNDS  rounds (default 7)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import os from 'node:os';
import { ChdbStore } from '../src/store/chdb-store.js';
import { encodeLogRows, LOG_COLUMNS } from '../src/store/logs.js';
import { migrate } from '../src/store/migrate.js';
import { insertTemplateHits } from '../src/store/template-hits.js';
import { logRowSequence } from './log-rows.js';

const BATCH_ROWS = 10_000;

/** Each variant: a copy of logs and what is dropped from it. */
const VARIANTS: { table: string; drop?: string }[] = [
  { table: 'logs' },
  { table: 'logs_no_trace_id_bloom', drop: 'DROP INDEX idx_trace_id' },
  { table: 'logs_no_text_index', drop: 'DROP INDEX idx_body_words' },
  { table: 'logs_no_ngram_index', drop: 'DROP INDEX idx_body_ngram_g4' },
  { table: 'logs_no_log_id_bloom', drop: 'DROP INDEX idx_log_id' },
];

const makeLogs = logRowSequence(BATCH_ROWS);

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

export async function main(): Promise<void> {
  const rounds = Number(process.env.SVC_BENCH_INSERT_ROUNDS ?? 7);
  const dir = mkdtempSync(join(tmpdir(), 'svc-insert-costs-'));
  const store = await ChdbStore.open(dir, 'svc_bench');
  try {
    await migrate(store);
    for (const variant of VARIANTS.slice(1)) {
      await store.exec(`CREATE TABLE ${variant.table} AS logs`);
      await store.exec(`ALTER TABLE ${variant.table} ${variant.drop}`);
    }
    const baseNs = BigInt(Date.now() - 60_000) * 1_000_000n;
    const costs = new Map<string, number[]>([...VARIANTS.map((v) => [v.table, []] as [string, number[]]), ['template_hits', []]]);
    for (let round = 0; round < rounds; round++) {
      const logs = makeLogs(baseNs);
      const payload = encodeLogRows(logs, 'RowBinary');
      // Rotate the order so that no variant always follows the same one.
      const order = VARIANTS.map((_, i) => VARIANTS[(i + round) % VARIANTS.length]!);
      for (const variant of order) {
        const before = cpuMs();
        await store.insertRaw(variant.table, LOG_COLUMNS, payload, 'RowBinary');
        costs.get(variant.table)!.push(((cpuMs() - before) * 1000) / BATCH_ROWS);
      }
      const hits = logs.map((log) => ({
        tsNs: log.tsNs,
        templateId: String(1000 + Number(log.tsNs % 50n)),
        service: log.serviceName,
        logId: log.logId,
        traceId: log.traceId,
        spanId: log.spanId,
        severityNumber: log.severityNumber,
      }));
      const before = cpuMs();
      await insertTemplateHits(store, hits);
      costs.get('template_hits')!.push(((cpuMs() - before) * 1000) / BATCH_ROWS);
    }
    const full = median(costs.get('logs')!);
    for (const [table, values] of costs) {
      const cost = median(values);
      const note = table.startsWith('logs_') ? ` (the dropped addition costs ${(full - cost).toFixed(2)} µs per log)` : '';
      console.log(`insert cost ${table}: ${cost.toFixed(2)} µs of CPU per row (median of ${values.length} batches of ${BATCH_ROWS})${note}`);
    }
    console.log(
      `insert cost: load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
