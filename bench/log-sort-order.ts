/**
 * Prices the logs table's sort order (issue 26): the schema as migrated (A: sorted by trace id, with
 * the full copy sorted by service of migration 5) against the same table sorted by
 * (service_name, ts_ns, log_id) with no full copy, finding a trace's logs either through a bloom
 * filter on trace_id (B-bloom) or through an index-only projection `SELECT _part_offset ORDER BY
 * trace_id` (B-proj). The B tables exist only in this bench's temp store, made from the migrated
 * table's own statement (SHOW CREATE), so codecs, skip indexes and settings stay the same.
 *
 * The same generated logs (bench/log-search-data.ts's generator, 24 h of them, all in one day's
 * partition) go into every table in 10k-log batches, oldest first as the writer sends them:
 *   1. inserts, merges stopped, variants in turn per batch: the process's CPU per insert, less the
 *      same insert into a Null table (the generator's own cost), as µs per log (medians);
 *   2. per variant, a fresh copy of the table loaded with its merges running (bench/log-sort-steady.ts):
 *      the CPU per log of inserts and merges together, less the generator's, the peak memory of
 *      its merges running at once and the engine's tracked peak; the copy is dropped after;
 *   3. per variant, merges started until none runs (the background merges of those parts), then
 *      OPTIMIZE FINAL (every log into one part): the process's CPU per log for each, the merge's peak
 *      memory (system.merges), the engine's tracked peak and the anonymous resident peak, and the
 *      bytes on disk per log once merged;
 *   4. reads through the read code of the log routes (src/store/reads/log-search.ts and
 *      getTraceLogs), each variant named `logs` in turn (EXCHANGE TABLES), the variants interleaved
 *      run by run: median and slowest of the runs per query shape, and the granules each variant's
 *      trace read selects (EXPLAIN indexes = 1).
 * Load average is printed beside every phase: the machine may be shared.
 *   SVC_BENCH_SORT_LOGS  logs per variant (default 1,000,000)
 *   SVC_BENCH_SORT_RUNS  runs per read shape and variant (default 7)
 *   SVC_BENCH_SORT_REVERSE=1  loads and merges the variants in the reverse order (the process's resident
 *                             memory only falls slowly after a large merge, so compare both orders)
 * `npm run bench -- log-sort-order`
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChdbStore } from '../src/store/chdb-store.js';
import { getTraceLogs } from '../src/store/logs.js';
import { migrate } from '../src/store/migrate.js';
import { countLogs, searchLogs, type LogSearchFilter } from '../src/store/reads/log-search.js';
import { insertGeneratedLogs, insertGeneratedTemplateHits, TEMPLATE_ID, TEMPLATE_SERVICE } from './log-search-data.js';
import { steadyLoad } from './log-sort-steady.js';

const BATCH_ROWS = 10_000;
const SAMPLE_MS = 100;
const PAGE_ROWS = 100;
const SERIES_BUCKET_SECS = 600;
const MIB = 2 ** 20;
const DAY_MS = 86_400_000;

interface Variant {
  name: string;
  /** The table's name while it is not the one read as `logs`. */
  table: string;
  /** What replaces the full copy sorted by service; undefined keeps the migrated table. */
  traceLookup?: string;
}

const VARIANTS: Variant[] = [
  { name: 'A (trace order + full copy by service)', table: 'logs' },
  {
    name: 'B-bloom (service order, bloom on trace_id)',
    table: 'logs_b_bloom',
    traceLookup: 'INDEX idx_trace_id trace_id TYPE bloom_filter(0.01) GRANULARITY 1',
  },
  {
    name: 'B-proj (service order, index-only projection by trace_id)',
    table: 'logs_b_proj',
    traceLookup: 'PROJECTION p_trace (SELECT _part_offset ORDER BY trace_id)',
  },
];

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const anonBytes = () => Number(/RssAnon:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;

/** The migrated logs table's statement with another sort key and the full copy swapped for `traceLookup`. */
function variantDdl(migrated: string, variant: Variant & { traceLookup: string }): string {
  const steps: [RegExp, string][] = [
    [/^CREATE TABLE \S+/, `CREATE TABLE ${variant.table}`],
    [/,\s*PROJECTION p_service_time\s*\([^()]*\)/, ''],
    [/\)\s*ENGINE = ReplacingMergeTree/, `, ${variant.traceLookup}) ENGINE = ReplacingMergeTree`],
    [/ORDER BY \(trace_id, ts_ns, log_id\)/, 'ORDER BY (service_name, ts_ns, log_id)'],
  ];
  let ddl = migrated;
  for (const [pattern, replacement] of steps) {
    if (!pattern.test(ddl)) throw new Error(`the logs table's statement has no ${pattern}: ${migrated}`);
    ddl = ddl.replace(pattern, replacement);
  }
  return ddl;
}

export async function main(): Promise<void> {
  const logs = Number(process.env.SVC_BENCH_SORT_LOGS ?? 1_000_000);
  const runs = Number(process.env.SVC_BENCH_SORT_RUNS ?? 7);
  // The newest log at the end of yesterday (UTC): every log sits in one day's partition.
  const nowMs = Math.floor(Date.now() / DAY_MS) * DAY_MS - 1;
  const dir = mkdtempSync(join(tmpdir(), 'svc-sort-order-'));
  const store = await ChdbStore.open(dir, 'svc_bench');
  try {
    await migrate(store);
    const [version] = await store.query<{ v: string }>('SELECT version() AS v');
    console.log(`log sort order: engine ${version?.v}, ${logs} logs per variant over 24 h, batches of ${BATCH_ROWS}`);
    const [created] = await store.query<{ statement: string }>('SHOW CREATE TABLE logs');
    for (const variant of VARIANTS) {
      if (variant.traceLookup !== undefined) await store.exec(variantDdl(created?.statement ?? '', { ...variant, traceLookup: variant.traceLookup }));
    }
    await store.exec('CREATE TABLE logs_null ENGINE = Null AS SELECT * FROM logs LIMIT 0');
    await insertGeneratedTemplateHits(store, logs, nowMs);

    // 1. Inserts, merges stopped so that they neither run within an insert's CPU nor differ by order.
    for (const variant of VARIANTS) await store.exec(`SYSTEM STOP MERGES ${variant.table}`);
    const insertUs = new Map<string, number[]>([...VARIANTS.map((v) => [v.table, []] as [string, number[]]), ['logs_null', []]]);
    const tables = [...VARIANTS.map((v) => v.table), 'logs_null'];
    let batch = 0;
    for (let offset = Math.max(0, logs - BATCH_ROWS); ; offset = Math.max(0, offset - BATCH_ROWS)) {
      const count = Math.min(BATCH_ROWS, logs - offset);
      for (let i = 0; i < tables.length; i++) {
        const table = tables[(i + batch) % tables.length]!;
        const before = cpuMs();
        await insertGeneratedLogs(store, table, logs, nowMs, offset, count);
        insertUs.get(table)!.push(((cpuMs() - before) * 1000) / count);
      }
      batch++;
      if (offset === 0) break;
    }
    const generatorUs = median(insertUs.get('logs_null')!);
    console.log(`inserts done (load average ${load()}); the generator alone (Null table): ${generatorUs.toFixed(2)} µs per log`);

    // 2. Steady loads with merges running, one variant at a time into a fresh copy.
    const mergeOrder = process.env.SVC_BENCH_SORT_REVERSE === '1' ? [...VARIANTS].reverse() : VARIANTS;
    for (const variant of mergeOrder) {
      const steady = `${variant.table}_steady`;
      await store.exec(
        variant.traceLookup === undefined
          ? `CREATE TABLE ${steady} AS ${variant.table}`
          : variantDdl(created?.statement ?? '', { ...variant, table: steady, traceLookup: variant.traceLookup }),
      );
      const figures = await steadyLoad(store, steady, logs, nowMs);
      await store.exec(`DROP TABLE ${steady} SYNC`);
      console.log(
        `${variant.name}, merges running: ${(figures.cpuUs - generatorUs).toFixed(2)} µs CPU per log for inserts and merges (${figures.secs.toFixed(0)} s, ${figures.partsLeft} parts left); ` +
          `merges at once peak ${(figures.peakMergeBytes / MIB).toFixed(0)} MiB, engine tracked ${(figures.peakTrackedBytes / MIB).toFixed(0)} MiB; load ${load()}`,
      );
    }

    // 3. Merges of the batches stored with merges stopped, one variant at a time.
    for (const variant of mergeOrder) {
      const figures = await mergeVariant(store, variant.table);
      const [disk] = await store.query<{ bytes: string; parts: string }>(
        'SELECT sum(bytes_on_disk) AS bytes, count() AS parts FROM system.parts WHERE database = currentDatabase() AND table = {table:String} AND active',
        { table: variant.table },
      );
      console.log(
        `${variant.name}: insert ${(median(insertUs.get(variant.table)!) - generatorUs).toFixed(2)} µs CPU per log; ` +
          `background merges ${figures.settleUs.toFixed(2)} µs per log (${figures.settleSecs.toFixed(0)} s, ${figures.settledParts} parts left, merge peak ${(figures.settlePeakMerge / MIB).toFixed(0)} MiB, load ${figures.settleLoad}); ` +
          `final merge of ${logs} logs ${figures.finalUs.toFixed(2)} µs per log (${figures.finalSecs.toFixed(1)} s, merge peak ${(figures.finalPeakMerge / MIB).toFixed(0)} MiB, engine tracked ${(figures.peakTracked / MIB).toFixed(0)} MiB, anon RSS ${(figures.peakAnon / MIB).toFixed(0)} MiB, load ${figures.finalLoad}); ` +
          `${(Number(disk?.bytes ?? 0) / logs).toFixed(1)} bytes on disk per log (${disk?.parts} parts)`,
      );
    }

    // 4. Reads, each variant named `logs` in turn.
    await store.exec('RENAME TABLE logs TO logs_a');
    VARIANTS[0]!.table = 'logs_a';
    const [trace] = await store.query<{ t: string }>(
      "SELECT lower(hex(cityHash64(intDiv({n:UInt64}, 10)))) || leftPad(lower(hex(intDiv({n:UInt64}, 10))), 16, '0') AS t",
      { n: Math.floor(logs / 60) * 30 },
    );
    const traceId = trace?.t ?? '';
    const window = { fromNs: BigInt(nowMs - DAY_MS) * 1_000_000n, toNs: BigInt(nowMs + 1) * 1_000_000n };
    const options = {};
    const traceOptions = { nowMs: nowMs + 1 };
    const shape = (extra: Partial<LogSearchFilter>): LogSearchFilter => ({ ...window, words: [], ...extra });
    const shapes: [string, () => Promise<number>][] = [
      ['search (no filter)', async () => (await searchLogs(store, shape({}), undefined, PAGE_ROWS, options)).rows.length],
      ['search service', async () => (await searchLogs(store, shape({ service: TEMPLATE_SERVICE }), undefined, PAGE_ROWS, options)).rows.length],
      ['search q=timeout', async () => (await searchLogs(store, shape({ words: ['timeout'] }), undefined, PAGE_ROWS, options)).rows.length],
      [
        'search q=gateway unreachable',
        async () => (await searchLogs(store, shape({ words: ['gateway', 'unreachable'] }), undefined, PAGE_ROWS, options)).rows.length,
      ],
      [
        'search service + q=gateway',
        async () => (await searchLogs(store, shape({ service: TEMPLATE_SERVICE, words: ['gateway'] }), undefined, PAGE_ROWS, options)).rows.length,
      ],
      ['search severity=error', async () => (await searchLogs(store, shape({ minSeverity: 17 }), undefined, PAGE_ROWS, options)).rows.length],
      ['search template', async () => (await searchLogs(store, shape({ templateId: TEMPLATE_ID }), undefined, PAGE_ROWS, options)).rows.length],
      ['search trace id', async () => (await searchLogs(store, shape({ traceId }), undefined, PAGE_ROWS, options)).rows.length],
      ['trace logs (getTraceLogs)', async () => (await getTraceLogs(store, traceId, traceOptions)).length],
      ['series (no filter)', async () => sumCounts(await countLogs(store, shape({}), SERIES_BUCKET_SECS, options))],
      ['series service', async () => sumCounts(await countLogs(store, shape({ service: TEMPLATE_SERVICE }), SERIES_BUCKET_SECS, options))],
      ['series q=timeout', async () => sumCounts(await countLogs(store, shape({ words: ['timeout'] }), SERIES_BUCKET_SECS, options))],
      ['series template', async () => sumCounts(await countLogs(store, shape({ templateId: TEMPLATE_ID }), SERIES_BUCKET_SECS, options))],
    ];
    const samples = new Map<string, number[]>();
    const answered = new Map<string, number>();
    let named: Variant | undefined;
    for (let run = 0; run < runs; run++) {
      for (let i = 0; i < VARIANTS.length; i++) {
        const variant = VARIANTS[(i + run) % VARIANTS.length]!;
        if (named !== undefined) await store.exec(`RENAME TABLE logs TO ${named.table}`);
        await store.exec(`RENAME TABLE ${variant.table} TO logs`);
        named = variant;
        for (const [what, read] of shapes) {
          const started = performance.now();
          const n = await read();
          const key = `${what}|${variant.name}`;
          samples.set(key, [...(samples.get(key) ?? []), performance.now() - started]);
          answered.set(key, n);
        }
        if (run === 0) {
          const plan = await store.query<{ explain: string }>(
            'EXPLAIN indexes = 1, projections = 1 SELECT log_id FROM logs WHERE trace_id = {trace_id:String}',
            {
              trace_id: traceId,
            },
          );
          const granules = plan.map((p) => p.explain.trim()).filter((line) => /^(Granules|Marks|Name|Description|Filtered Parts):/.test(line));
          const [projected] = await store.query<{ parts: string }>(
            "SELECT count() AS parts FROM system.projection_parts WHERE database = currentDatabase() AND table = 'logs' AND active",
          );
          console.log(`${variant.name}: a trace's logs plan: ${granules.join('; ')} (${projected?.parts} projection parts)`);
        }
      }
    }
    console.log(`reads (load average ${load()}), ms median / slowest of ${runs} runs, and what each answered:`);
    console.log(`| shape | ${VARIANTS.map((v) => v.name.split(' ')[0]).join(' | ')} |`);
    console.log(`|---|${VARIANTS.map(() => '---').join('|')}|`);
    for (const [what] of shapes) {
      const cells = VARIANTS.map((v) => {
        const values = samples.get(`${what}|${v.name}`) ?? [];
        return `${median(values).toFixed(0)} / ${Math.max(...values).toFixed(0)} (${answered.get(`${what}|${v.name}`)})`;
      });
      console.log(`| ${what} | ${cells.join(' | ')} |`);
    }
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function sumCounts(counts: { n: number }[]): number {
  return counts.reduce((sum, c) => sum + c.n, 0);
}

interface MergeFigures {
  settleUs: number;
  settleSecs: number;
  settledParts: number;
  settlePeakMerge: number;
  settleLoad: string;
  finalUs: number;
  finalSecs: number;
  finalPeakMerge: number;
  peakTracked: number;
  peakAnon: number;
  finalLoad: string;
}

/** Lets one table's background merges run until none is left, then merges it into one part. */
async function mergeVariant(store: ChdbStore, table: string): Promise<MergeFigures> {
  const logs = Number(process.env.SVC_BENCH_SORT_LOGS ?? 1_000_000);
  let peakMerge = 0;
  let peakTracked = 0;
  let peakAnon = 0;
  const sample = async (): Promise<number> => {
    const [row] = await store.query<{ merge: string | null; running: string; tracked: string }>(
      `SELECT (SELECT sum(memory_usage) FROM system.merges WHERE database = currentDatabase() AND table = {table:String}) AS merge,
              (SELECT count() FROM system.merges WHERE database = currentDatabase() AND table = {table:String}) AS running,
              (SELECT value FROM system.metrics WHERE metric = 'MemoryTracking') AS tracked`,
      { table },
    );
    peakMerge = Math.max(peakMerge, Number(row?.merge ?? 0));
    peakTracked = Math.max(peakTracked, Number(row?.tracked ?? 0));
    peakAnon = Math.max(peakAnon, anonBytes());
    return Number(row?.running ?? 0);
  };
  const pause = () => new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
  const partsOf = async () =>
    Number(
      (
        await store.query<{ n: string }>('SELECT count() AS n FROM system.parts WHERE database = currentDatabase() AND table = {table:String} AND active', {
          table,
        })
      )[0]?.n ?? 0,
    );

  let cpu = cpuMs();
  let started = performance.now();
  await store.exec(`SYSTEM START MERGES ${table}`);
  // Settled: no merge ran over ten samples in a row and the part count stayed the same meanwhile.
  let idle = 0;
  let parts = await partsOf();
  while (idle < 10) {
    const running = await sample();
    const now = await partsOf();
    idle = running === 0 && now === parts ? idle + 1 : 0;
    parts = now;
    await pause();
  }
  const settleSecs = (performance.now() - started) / 1000 - (10 * SAMPLE_MS) / 1000;
  const settleUs = ((cpuMs() - cpu) * 1000) / logs;
  const settlePeakMerge = peakMerge;
  const settleLoad = load();

  peakMerge = 0;
  let merging = true;
  const sampler = (async () => {
    while (merging) {
      await sample();
      await pause();
    }
  })();
  cpu = cpuMs();
  started = performance.now();
  await store.exec(`OPTIMIZE TABLE ${table} FINAL`);
  const finalSecs = (performance.now() - started) / 1000;
  merging = false;
  await sampler;
  const finalUs = ((cpuMs() - cpu) * 1000) / logs;
  await store.exec(`SYSTEM STOP MERGES ${table}`);
  return {
    settleUs,
    settleSecs,
    settledParts: parts,
    settlePeakMerge,
    settleLoad,
    finalUs,
    finalSecs,
    finalPeakMerge: peakMerge,
    peakTracked,
    peakAnon,
    finalLoad: load(),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
