/**
 * What trace_spans (the spans packed again for reads by id, migrations 11 and 14) costs per
 * inserted span, inserts and merges together, priced by variant. Each variant gets a fresh copy of
 * the spans table (and of its packed table and view, if any), takes the same batches of 10k spans
 * (the ingest-e2e load's spans: 10 attributes, random ids; the writer's max_rows) back to back, then
 * waits until its merges have settled. Counted: the CPU of every thread of this process from the
 * first insert to the settled merges (and the kernel's share of it), µs per span, medians over
 * rounds; variants rotate so none always follows the same one. The difference to `none` is what the
 * packed copy costs; `null-view` and `cheap-view` split it into the view's SELECT, the second
 * insert's parts without the packed text, and the rest (the packed text written and merged).
 * Reads by id of each form: `npm run bench -- trace-read-costs` on the build.
 *   SVC_BENCH_TS_ROUNDS   rounds (default 3)
 *   SVC_BENCH_TS_BATCHES  batches of 10k spans per variant and round (default 30)
 *   SVC_BENCH_TS_ONLY     comma-separated variant names to run (default all)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SpanRow } from '../src/model/signals.js';
import { ChdbStore } from '../src/store/chdb-store.js';
import { migrate } from '../src/store/migrate.js';
import { migration0011 } from '../src/store/migrations/0011-trace-spans.js';
import { migration0015 } from '../src/store/migrations/0015-trace-spans-blocks.js';
import { encodeSpanRows, SPAN_COLUMNS } from '../src/store/spans.js';
import { spanBatch } from './ingest-e2e.js';

const BATCH_ROWS = 10_000;
const [CREATE_PACKED, CREATE_VIEW] = migration0011.statements as [string, string, string];

interface Variant {
  name: string;
  /** The packed table's DDL (with `trace_spans` as its name) and statements after it, or none. */
  table?: string[];
  /** Filled by migration 11's view (default) or by a view that packs nothing (`cheap`). */
  view?: 'cheap';
}

const BLOCKS_16K = ', min_compress_block_size = 4096, max_compress_block_size = 16384';
/** trace_spans as migrations 11 and 14 leave it. */
const CURRENT = [CREATE_PACKED, ...migration0015.statements];
const withCodec = (codec: string) => [CREATE_PACKED.replace('packed String CODEC(ZSTD(3))', `packed String CODEC(${codec})`), ...migration0015.statements];

const VARIANTS: Variant[] = [
  // No packed copy: the spans table alone.
  { name: 'none' },
  // The view's SELECT alone: its rows go to a table that keeps nothing.
  { name: 'null-view', table: ['CREATE TABLE trace_spans (trace_id String, span_id String, start_ns Int64, packed String) ENGINE = Null'] },
  // The second insert's parts without the packed text (sorting, writing and merging ids and times).
  { name: 'cheap-view', table: CURRENT, view: 'cheap' },
  { name: 'current', table: CURRENT },
  // Before migration 15: blocks of at most 16 KiB.
  { name: 'blocks-16k', table: [CREATE_PACKED] },
  // Blocks of up to the engine's 1 MiB, still ended with every granule.
  { name: 'blocks-1m', table: [CREATE_PACKED.replace(BLOCKS_16K, ', min_compress_block_size = 4096')] },
  // Blocks of the engine's default sizes (at least 64 KiB, so one spans granules).
  { name: 'blocks-default', table: [CREATE_PACKED.replace(BLOCKS_16K, '')] },
  { name: 'zstd1', table: withCodec('ZSTD(1)') },
  { name: 'lz4', table: withCodec('LZ4') },
];

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

function systemMs(): number {
  return process.cpuUsage().system / 1000;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function settle(store: ChdbStore, tables: string[]): Promise<void> {
  // Quiet for three polls in a row: no merge running, and the part count unchanged.
  let quiet = 0;
  let lastParts = '';
  while (quiet < 3) {
    await new Promise((resolve) => setTimeout(resolve, 400));
    const [state] = await store.query<{ merges: string; parts: string }>(
      `SELECT (SELECT count() FROM system.merges WHERE database = currentDatabase() AND table IN {t:Array(String)}) AS merges,
              (SELECT count() FROM system.parts WHERE database = currentDatabase() AND active AND table IN {t:Array(String)}) AS parts`,
      { t: tables },
    );
    const parts = state?.parts ?? '';
    quiet = state?.merges === '0' && parts === lastParts ? quiet + 1 : 0;
    lastParts = parts;
  }
}

async function runVariant(
  store: ChdbStore,
  variant: Variant,
  payloads: Buffer[],
): Promise<{ micros: number; insertMicros: number; kernelMicros: number; parts: string }> {
  const spansTable = `spans_${variant.name.replaceAll('-', '_')}`;
  const packedTable = `packed_${variant.name.replaceAll('-', '_')}`;
  await store.exec(`CREATE TABLE ${spansTable} AS spans`);
  const tables = [spansTable];
  if (variant.table !== undefined) {
    tables.push(packedTable);
    for (const statement of variant.table) await store.exec(statement.replace('trace_spans', packedTable));
    const view =
      variant.view === 'cheap'
        ? `CREATE MATERIALIZED VIEW ${packedTable}_mv TO ${packedTable} AS SELECT trace_id, span_id, start_ns, '' AS packed FROM ${spansTable}`
        : CREATE_VIEW.replace('trace_spans_mv', `${packedTable}_mv`).replace('TO trace_spans', `TO ${packedTable}`).replace('FROM spans', `FROM ${spansTable}`);
    await store.exec(view);
  }
  await settle(store, tables);
  const before = cpuMs();
  const systemBefore = systemMs();
  for (let i = 0; i < payloads.length; i++) {
    await store.insertRaw(spansTable, SPAN_COLUMNS, payloads[i]!, 'RowBinary');
  }
  const inserted = cpuMs() - before;
  await settle(store, tables);
  const spent = cpuMs() - before;
  const kernel = systemMs() - systemBefore;
  const [parts] = await store.query<{ parts: string }>(
    `SELECT arrayStringConcat(groupArray(concat(table, ':', toString(n))), ' ') AS parts FROM
       (SELECT table, count() AS n FROM system.parts WHERE database = currentDatabase() AND active AND table IN {t:Array(String)} GROUP BY table ORDER BY table)`,
    { t: tables },
  );
  if (variant.table !== undefined) await store.exec(`DROP TABLE ${packedTable}_mv`);
  for (const table of tables) await store.exec(`DROP TABLE ${table}`);
  const perSpan = 1000 / (payloads.length * BATCH_ROWS);
  return { micros: spent * perSpan, insertMicros: inserted * perSpan, kernelMicros: kernel * perSpan, parts: parts?.parts ?? '' };
}

export async function main(): Promise<void> {
  const rounds = Number(process.env.SVC_BENCH_TS_ROUNDS ?? 3);
  const batchCount = Number(process.env.SVC_BENCH_TS_BATCHES ?? 30);
  const only = process.env.SVC_BENCH_TS_ONLY?.split(',');
  const variants = only === undefined ? VARIANTS : VARIANTS.filter((v) => only.includes(v.name));
  const dir = mkdtempSync(join(tmpdir(), 'svc-trace-spans-costs-'));
  const store = await ChdbStore.open(dir, 'svc_bench');
  try {
    await migrate(store);
    const nowNs = BigInt(Date.now() - 60_000) * 1_000_000n;
    const costs = new Map<string, number[]>(variants.map((v) => [v.name, []]));
    for (let round = 0; round < rounds; round++) {
      const batches: SpanRow[][] = [];
      for (let b = 0; b < batchCount; b++) {
        const rows: SpanRow[] = [];
        for (let r = 0; rows.length < BATCH_ROWS; r++) rows.push(...spanBatch(nowNs + BigInt(b * 1_000_000_000 + r), b * 20 + r));
        batches.push(rows.slice(0, BATCH_ROWS));
      }
      const payloads = batches.map((rows) => encodeSpanRows(rows, 'RowBinary'));
      const order = variants.map((_, i) => variants[(i + round) % variants.length]!);
      for (const variant of order) {
        const { micros, insertMicros, kernelMicros, parts } = await runVariant(store, variant, payloads);
        costs.get(variant.name)!.push(micros);
        console.log(
          `trace-spans-costs round ${round + 1} ${variant.name}: ${micros.toFixed(2)} µs/span, ${insertMicros.toFixed(2)} of them during the inserts, ${kernelMicros.toFixed(2)} in the kernel (parts ${parts}; load ${os.loadavg()[0]!.toFixed(2)})`,
        );
      }
    }
    const none = costs.has('none') ? median(costs.get('none')!) : undefined;
    for (const [name, values] of costs) {
      const cost = median(values);
      const extra = none === undefined || name === 'none' ? '' : ` (+${(cost - none).toFixed(2)} over none)`;
      console.log(
        `trace-spans-costs ${name}: ${cost.toFixed(2)} µs of CPU per span, inserts and merges (median of ${values.length} rounds of ${batchCount} x ${BATCH_ROWS})${extra}`,
      );
    }
    console.log(
      `trace-spans-costs: load average ${os
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
