/**
 * Where the embedded engine's anonymous memory sits under the ingest load, in one process of its
 * own: batches of 10k spans and 10k logs inserted as the writer does, one pair per pace interval
 * (10k spans/s + 10k logs/s by default), then the merges left to settle. Every 250 ms it samples the
 * process's anonymous RSS and the engine's own accounts: its allocator's (jemalloc: bytes allocated,
 * resident, dirty pages kept for reuse), its memory tracker, the running merges' memory. It prints
 * the samples at the anonymous peak and the maxima, with the engine threads' CPU per stored item.
 *   node dist/bench/engine-memory.js [checkout root]
 *   SVC_BENCH_EM_BATCHES   batches of 10k rows per table (default 60)
 *   SVC_BENCH_EM_PACE_MS   interval between batch pairs (default 1000; 0 back to back)
 *   SVC_BENCH_EM_ARGS      engine arguments of a variant to price, separated by spaces (the first
 *                          connection on a directory sets the engine's server settings, so a
 *                          connection opened with them before the store's carries them)
 *   SVC_BENCH_EM_SQL       statements run after the migration, separated by ';'
 *   SVC_BENCH_EM_PURGE_MS  if set, `SYSTEM JEMALLOC PURGE` this often (what purging would buy)
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import type * as ChdbModule from 'chdb';
import type { SpanRow } from '../src/model/signals.js';
import type { ChdbStore } from '../src/store/chdb-store.js';
import type * as SpansModule from '../src/store/spans.js';
import type * as ChdbStoreModule from '../src/store/chdb-store.js';
import type * as MigrateModule from '../src/store/migrate.js';
import type * as LogsModule from '../src/store/logs.js';
import { encodeLogRows } from '../src/store/logs.js';
import { encodeSpanRows } from '../src/store/spans.js';
import { spanBatch } from './ingest-e2e.js';
import { logRowSequence } from './log-rows.js';

const BATCH_ROWS = 10_000;
const TICK_SECS = 1 / 100;
const SAMPLE_MS = 250;
const MIB = 2 ** 20;

interface Sample {
  anonBytes: number;
  /** Anonymous pages of libchdb's own mappings (its relocated data), not the heap. */
  libAnonBytes: number;
  jeAllocatedBytes: number;
  jeResidentBytes: number;
  jeDirtyBytes: number;
  trackedBytes: number;
  mergesTrackedBytes: number;
  merges: number;
  mergesMemoryBytes: number;
  /** Each running merge: table, parts merged, rows so far, MiB held. */
  mergeList: string;
}

function anonOfProcess(): { anonBytes: number; libAnonBytes: number } {
  const text = readFileSync('/proc/self/smaps', 'latin1');
  let anonBytes = 0;
  let libAnonBytes = 0;
  let inLib = false;
  for (const line of text.split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) {
      inLib = line.includes('libchdb');
      continue;
    }
    if (line.startsWith('Anonymous:')) {
      const bytes = Number(/(\d+) kB/.exec(line)?.[1] ?? 0) * 1024;
      anonBytes += bytes;
      if (inLib) libAnonBytes += bytes;
    }
  }
  return { anonBytes, libAnonBytes };
}

const num = (re: RegExp, text: string) => Number(re.exec(text)?.[1] ?? 0);

async function sample(store: ChdbStore): Promise<Sample> {
  const [row] = await store.query<{ stats: string; tracked: string; mergesTracked: string; merges: string; mergesMemory: string; mergeList: string }>(
    `SELECT (SELECT any(*) FROM system.jemalloc_stats) AS stats,
            (SELECT value FROM system.metrics WHERE metric = 'MemoryTracking') AS tracked,
            (SELECT value FROM system.metrics WHERE metric = 'MergesMutationsMemoryTracking') AS mergesTracked,
            (SELECT count() FROM system.merges) AS merges,
            (SELECT sum(memory_usage) FROM system.merges) AS mergesMemory,
            (SELECT arrayStringConcat(groupArray(concat(table, ':', toString(num_parts), 'p:', toString(rows_read), 'r:', toString(intDiv(memory_usage, 1048576)), 'MiB:', merge_algorithm)), ' ') FROM system.merges) AS mergeList`,
  );
  const stats = row?.stats ?? '';
  const merged = stats.slice(stats.indexOf('Merged arenas stats:'));
  return {
    ...anonOfProcess(),
    jeAllocatedBytes: num(/Allocated: (\d+)/, stats),
    jeResidentBytes: num(/resident: (\d+)/, stats),
    jeDirtyBytes: num(/dirty:\s+\S+\s+(\d+)/, merged) * 4096,
    trackedBytes: Number(row?.tracked ?? 0),
    mergesTrackedBytes: Number(row?.mergesTracked ?? 0),
    merges: Number(row?.merges ?? 0),
    mergesMemoryBytes: Number(row?.mergesMemory ?? 0),
    mergeList: row?.mergeList ?? '',
  };
}

function describe(s: Sample): string {
  const m = (bytes: number) => (bytes / MIB).toFixed(0);
  return `anon ${m(s.anonBytes)} (libchdb data ${m(s.libAnonBytes)}), jemalloc allocated ${m(s.jeAllocatedBytes)} resident ${m(s.jeResidentBytes)} dirty ${m(s.jeDirtyBytes)}, tracked ${m(s.trackedBytes)} (merges ${m(s.mergesTrackedBytes)}), ${s.merges} merges holding ${m(s.mergesMemoryBytes)} MiB${s.mergeList === '' ? '' : ` (${s.mergeList})`}`;
}

/** CPU seconds of the engine's threads (all but the main thread and V8's helpers, named "node"). */
function engineSecs(): number {
  let secs = 0;
  for (const tid of readdirSync('/proc/self/task')) {
    if (tid === String(process.pid)) continue;
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) === 'node') continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      secs += (Number(fields[11]) + Number(fields[12])) * TICK_SECS;
    } catch {
      // ended meanwhile
    }
  }
  return secs;
}

async function settle(store: ChdbStore): Promise<void> {
  let quiet = 0;
  while (quiet < 3) {
    await new Promise((r) => setTimeout(r, 400));
    const [state] = await store.query<{ merges: string }>(`SELECT count() AS merges FROM system.merges WHERE database = currentDatabase()`);
    quiet = state?.merges === '0' ? quiet + 1 : 0;
  }
}

export async function main(args: readonly string[] = []): Promise<void> {
  const root = resolve(args[0] ?? new URL('../..', import.meta.url).pathname);
  const load = <T>(path: string): Promise<T> => import(pathToFileURL(join(root, 'dist', path)).href);
  const { ChdbStore } = await load<typeof ChdbStoreModule>('src/store/chdb-store.js');
  const { migrate } = await load<typeof MigrateModule>('src/store/migrate.js');
  const { SPAN_COLUMNS } = await load<typeof SpansModule>('src/store/spans.js');
  const { LOG_COLUMNS } = await load<typeof LogsModule>('src/store/logs.js');
  const batches = Number(process.env.SVC_BENCH_EM_BATCHES ?? 60);
  const paceMs = Number(process.env.SVC_BENCH_EM_PACE_MS ?? 1000);
  const variantArgs = (process.env.SVC_BENCH_EM_ARGS ?? '').split(' ').filter((a) => a !== '');
  const extra = (process.env.SVC_BENCH_EM_SQL ?? '').split(';').filter((s) => s.trim() !== '');
  const purgeMs = Number(process.env.SVC_BENCH_EM_PURGE_MS ?? 0);
  const dir = mkdtempSync(join(tmpdir(), 'svc-engine-memory-'));
  // The engine of the build measured (its own copy of the package), loaded only for a variant.
  const engine = () => createRequire(join(root, 'package.json'))('chdb') as typeof ChdbModule;
  const primer = variantArgs.length > 0 ? new (engine().Session)(dir, { connectionArgs: variantArgs }) : undefined;
  const store = await ChdbStore.open(dir, 'svc_bench');
  const makeLogs = logRowSequence(BATCH_ROWS);
  try {
    await migrate(store);
    for (const statement of extra) await store.exec(statement);
    await settle(store);
    const nowNs = BigInt(Date.now() - 60_000) * 1_000_000n;
    const payloads = (b: number): [Buffer, Buffer] => {
      const rows: SpanRow[] = [];
      for (let r = 0; rows.length < BATCH_ROWS; r++) rows.push(...spanBatch(nowNs + BigInt(b * 1_000_000_000 + r), b * 20 + r));
      return [encodeSpanRows(rows.slice(0, BATCH_ROWS), 'RowBinary'), encodeLogRows(makeLogs(nowNs + BigInt(b) * 1_000_000_000n), 'RowBinary')];
    };
    let peak: Sample | undefined;
    let heaviestMerges = { mergesMemoryBytes: 0, mergeList: '' };
    const maxima = new Map<keyof Sample, number>();
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const s = await sample(store);
        if (peak === undefined || s.anonBytes > peak.anonBytes) peak = s;
        for (const [key, value] of Object.entries(s) as [keyof Sample, number | string][])
          if (typeof value === 'number') maxima.set(key, Math.max(maxima.get(key) ?? 0, value));
        if (s.mergesMemoryBytes > heaviestMerges.mergesMemoryBytes) heaviestMerges = s;
        await new Promise((r) => setTimeout(r, SAMPLE_MS));
      }
    })();
    const purger = purgeMs > 0 ? setInterval(() => void store.exec('SYSTEM JEMALLOC PURGE'), purgeMs) : undefined;
    const before = engineSecs();
    const startedMs = Date.now();
    for (let b = 0; b < batches; b++) {
      const [spans, logs] = payloads(b);
      await store.insertRaw('spans', SPAN_COLUMNS, spans, 'RowBinary');
      await store.insertRaw('logs', LOG_COLUMNS, logs, 'RowBinary');
      const waitMs = startedMs + (b + 1) * paceMs - Date.now();
      if (waitMs > 0) await new Promise((r) => setTimeout(r, waitMs));
    }
    const insertedMs = Date.now() - startedMs;
    await settle(store);
    sampling = false;
    await sampler;
    if (purger !== undefined) clearInterval(purger);
    const items = 2 * batches * BATCH_ROWS;
    const engineSpentSecs = engineSecs() - before;
    const last = await sample(store);
    const m = (key: keyof Sample) => ((maxima.get(key) ?? 0) / MIB).toFixed(0);
    console.log(
      `engine-memory ${args[0] ?? 'this build'}${variantArgs.length > 0 ? ` [${variantArgs.join(' ')}]` : ''}${extra.length > 0 ? ` [sql ${extra.join('; ')}]` : ''}${purgeMs > 0 ? ` [purge every ${purgeMs} ms]` : ''}: ` +
        `peak anonymous ${m('anonBytes')} MiB; at the peak ${peak === undefined ? '-' : describe(peak)}; maxima jemalloc resident ${m('jeResidentBytes')} dirty ${m('jeDirtyBytes')} tracked ${m('trackedBytes')} merges ${m('mergesMemoryBytes')} (${heaviestMerges.mergeList}; ${maxima.get('merges') ?? 0} at once at most); ` +
        `settled ${describe(last)}; engine threads' CPU ${((engineSpentSecs * 1e6) / items).toFixed(2)} µs/item (sampling's queries included), inserts ${insertedMs} ms; load ${os.loadavg()[0]!.toFixed(2)}`,
    );
  } finally {
    await store.close();
    primer?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main(process.argv.slice(2));
