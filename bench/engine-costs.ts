/**
 * The embedded engine's CPU per stored item for the ingest load's two big tables, by engine thread
 * group, in one process of its own: batches of 10k spans (the spans table with its views, trace_spans
 * among them) and 10k logs inserted alternately as the writer does, then the merges left to settle.
 * Counted from /proc per thread: the inserts' threads, the engine's query pool, its merge threads
 * and the rest, µs per stored item (spans and logs). Run it for this build and for an older build's
 * checkout, in turn, to compare them in separate processes:
 *   node dist/bench/engine-costs.js [checkout root]
 *   SVC_BENCH_EC_BATCHES  batches of 10k rows per table (default 30, a 30 s run at 10k/s each)
 *   SVC_BENCH_EC_SQL      statements run after the migration, separated by ';' (a variant to price)
 *   SVC_BENCH_EC_READS    reads of each kind once the merges settled (default 100): a trace by id,
 *                         a service's newest logs holding a word, a trace's logs; medians and p95
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { SpanRow } from '../src/model/signals.js';
import type { ChdbStore } from '../src/store/chdb-store.js';
import type * as SpansModule from '../src/store/spans.js';
import type * as LogSearchModule from '../src/store/reads/log-search.js';
import type * as ChdbStoreModule from '../src/store/chdb-store.js';
import type * as MigrateModule from '../src/store/migrate.js';
import type * as LogsModule from '../src/store/logs.js';
import { encodeLogRows } from '../src/store/logs.js';
import { encodeSpanRows } from '../src/store/spans.js';
import { spanBatch } from './ingest-e2e.js';
import { logRowSequence } from './log-rows.js';

const BATCH_ROWS = 10_000;
const TICK_SECS = 1 / 100;

/** CPU seconds of this process's threads, by thread name. */
function threadSecs(): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const group =
        tid === String(process.pid)
          ? 'main'
          : name === 'MergeMutate'
            ? 'merges'
            : name === 'ThreadPool' || name.startsWith('QueryPipeline')
              ? 'query pool'
              : name;
      byName.set(group, (byName.get(group) ?? 0) + (Number(fields[11]) + Number(fields[12])) * TICK_SECS);
    } catch {
      // ended meanwhile
    }
  }
  return byName;
}

function diff(after: Map<string, number>, before: Map<string, number>): Map<string, number> {
  return new Map([...after].map(([name, secs]) => [name, secs - (before.get(name) ?? 0)]));
}

const makeLogs = logRowSequence(BATCH_ROWS);

/** A module of the build measured (this one's or an older checkout's), typed as this build's. */
type Loader = <T>(path: string) => Promise<T>;

async function settle(store: ChdbStore): Promise<string> {
  let quiet = 0;
  let lastParts = '';
  while (quiet < 3) {
    await new Promise((r) => setTimeout(r, 400));
    const [state] = await store.query<{ merges: string; parts: string }>(
      `SELECT (SELECT count() FROM system.merges WHERE database = currentDatabase()) AS merges,
              (SELECT arrayStringConcat(groupArray(concat(table, ':', toString(n))), ' ') FROM
                (SELECT table, count() AS n FROM system.parts WHERE database = currentDatabase() AND active GROUP BY table ORDER BY table)) AS parts`,
    );
    quiet = state?.merges === '0' && state.parts === lastParts ? quiet + 1 : 0;
    lastParts = state?.parts ?? '';
  }
  return lastParts;
}

const quantile = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * q))]!;

/** Times the reads of a settled store, each kind in turn per round, and prints medians and p95s. */
async function readTimes(store: ChdbStore, load: Loader, traceIds: string[], nowNs: bigint, batches: number): Promise<void> {
  const rounds = Number(process.env.SVC_BENCH_EC_READS ?? 100);
  if (rounds <= 0) return;
  const { getTraceSpans } = await load<typeof SpansModule>('src/store/spans.js');
  const { searchLogs } = await load<typeof LogSearchModule>('src/store/reads/log-search.js');
  const window = { fromNs: nowNs - 1_000_000_000n, toNs: nowNs + BigInt(batches + 1) * 1_000_000_000n };
  const logTrace = (n: number) => (n >> 4).toString(16).padStart(32, '0');
  const kinds: [string, (i: number) => Promise<unknown>][] = [
    ['trace by id', (i) => getTraceSpans(store, traceIds[i % traceIds.length]!)],
    ['logs of a service with a word', (i) => searchLogs(store, { ...window, service: `service-${i % 20}`, words: ['warehouse'] }, undefined, 100, {})],
    ['logs of a trace', (i) => searchLogs(store, { ...window, words: [], traceId: logTrace((i * 7919) % (batches * BATCH_ROWS)) }, undefined, 100, {})],
  ];
  const times = new Map<string, number[]>(kinds.map(([name]) => [name, []]));
  for (let i = 0; i < rounds; i++) {
    for (const [name, read] of kinds) {
      const startedMs = performance.now();
      await read(i);
      times.get(name)!.push(performance.now() - startedMs);
    }
  }
  console.log(
    `engine-costs reads (${rounds} each): ${[...times].map(([name, ms]) => `${name} median ${quantile(ms, 0.5).toFixed(2)} p95 ${quantile(ms, 0.95).toFixed(2)} ms`).join('; ')}; load ${os.loadavg()[0]!.toFixed(2)}`,
  );
}

export async function main(args: readonly string[] = []): Promise<void> {
  const root = resolve(args[0] ?? new URL('../..', import.meta.url).pathname);
  const load: Loader = (path) => import(pathToFileURL(join(root, 'dist', path)).href);
  const { ChdbStore } = await load<typeof ChdbStoreModule>('src/store/chdb-store.js');
  const { migrate } = await load<typeof MigrateModule>('src/store/migrate.js');
  const { SPAN_COLUMNS } = await load<typeof SpansModule>('src/store/spans.js');
  const { LOG_COLUMNS } = await load<typeof LogsModule>('src/store/logs.js');
  const batches = Number(process.env.SVC_BENCH_EC_BATCHES ?? 30);
  const extra = (process.env.SVC_BENCH_EC_SQL ?? '').split(';').filter((s) => s.trim() !== '');
  const dir = mkdtempSync(join(tmpdir(), 'svc-engine-costs-'));
  const store = await ChdbStore.open(dir, 'svc_bench');
  try {
    await migrate(store);
    for (const statement of extra) await store.exec(statement);
    const nowNs = BigInt(Date.now() - 60_000) * 1_000_000n;
    // Each batch is encoded just before its inserts (on the main thread, left out of the engine's
    // figures), so the process holds one batch's payloads, not the run's.
    const traceIds: string[] = [];
    const payloads = (b: number): [Buffer, Buffer] => {
      const rows: SpanRow[] = [];
      for (let r = 0; rows.length < BATCH_ROWS; r++) rows.push(...spanBatch(nowNs + BigInt(b * 1_000_000_000 + r), b * 20 + r));
      traceIds.push(rows[0]!.traceId);
      return [encodeSpanRows(rows.slice(0, BATCH_ROWS), 'RowBinary'), encodeLogRows(makeLogs(nowNs + BigInt(b) * 1_000_000_000n), 'RowBinary')];
    };
    await settle(store);
    let peakAnonKiB = 0;
    const sampler = setInterval(() => {
      const kib = Number(/RssAnon:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0);
      peakAnonKiB = Math.max(peakAnonKiB, kib);
    }, 100);
    const before = threadSecs();
    const startedMs = Date.now();
    for (let b = 0; b < batches; b++) {
      const [spans, logs] = payloads(b);
      await store.insertRaw('spans', SPAN_COLUMNS, spans, 'RowBinary');
      await store.insertRaw('logs', LOG_COLUMNS, logs, 'RowBinary');
    }
    const insertedMs = Date.now() - startedMs;
    const atInserted = threadSecs();
    const parts = await settle(store);
    clearInterval(sampler);
    const spent = diff(threadSecs(), before);
    const duringInserts = diff(atInserted, before);
    const items = 2 * batches * BATCH_ROWS;
    const us = (secs: number) => ((secs * 1e6) / items).toFixed(2);
    const engine = (m: Map<string, number>) => [...m].filter(([name]) => name !== 'main' && name !== 'node').reduce((a, [, secs]) => a + secs, 0);
    const total = engine(spent);
    const sorted = [...spent].filter(([, s]) => s > 0).sort((a, b) => b[1] - a[1]);
    console.log(
      `engine-costs ${args[0] ?? 'this build'}: ${us(total)} µs/item by the engine's threads (${us(engine(duringInserts))} by the inserts' end, ${insertedMs} ms; peak anonymous ${(peakAnonKiB / 1024).toFixed(0)} MiB); ${sorted
        .map(([n, s]) => `${n} ${us(s)}`)
        .join(', ')}; parts ${parts}; load ${os.loadavg()[0]!.toFixed(2)}`,
    );
    await readTimes(store, load, traceIds, nowNs, batches);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main(process.argv.slice(2));
