/**
 * Where svc's CPU goes, per stored item, at 10k spans/s + 10k logs/s through a real all-in-one
 * (the ingest-e2e load: OTLP/HTTP protobuf, 500 items per export). Two sources, one run:
 * - every thread's CPU from /proc, grouped: the main thread, the writer's encoder thread (decode and
 *   insert encoding), libuv's pool with V8's helpers (chDB runs each insert there, parsing the rows
 *   and writing the part), the engine's merge threads and its query pool;
 * - the main thread's V8 CPU profile split into stages (ingest, decode, bus, assembler, logminer,
 *   API and recorder, transport, garbage collection), scaled to the main thread's measured CPU.
 * The profiler costs the main thread a few per cent; the totals are what /proc says.
 *   SVC_BENCH_CPU_SECS    load duration (default 30)
 *   SVC_BENCH_CPU_RATE    items/s per signal (default 10000)
 *   SVC_BENCH_CPU_BASE    a checkout of an older build: runs it and this one alternately
 *   SVC_BENCH_CPU_ROUNDS  rounds (default 1; with a base, each round runs both)
 *   SVC_BENCH_CPU_PROFILE 0: no V8 profile (thread groups only, no profiler cost on the main thread)
 *   SVC_BENCH_SVC_NODE_ARGS node flags for the svc process, space-separated
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mainThreadStages } from './cpu-profile-stages.js';
import { main as ingestE2e, type IngestBenchFigures } from './ingest-e2e.js';

interface Breakdown {
  label: string;
  figures: IngestBenchFigures;
  stagesMicros: Map<string, number>;
}

const extraNodeArgs = (process.env.SVC_BENCH_SVC_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');

async function measure(label: string, seconds: number, ratePerSignal: number, profile: boolean, svcRoot?: string): Promise<Breakdown> {
  const profileDir = mkdtempSync(join(tmpdir(), 'svc-cpu-prof-'));
  try {
    const figures = await ingestE2e([], {
      seconds,
      ratePerSignal,
      svcRoot,
      nodeArgs: [...extraNodeArgs, ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])],
    });
    // The profiler's sampling thread is the bench's own cost.
    figures.cpuSecs -= figures.threadCpuSecs.get('V8 profiler (bench only)') ?? 0;
    const items = Math.max(1, figures.storedItems);
    const mainSecs = figures.threadCpuSecs.get('main thread') ?? 0;
    const stagesMs = profile ? mainThreadStages(profileDir) : new Map<string, number>();
    const profiledMs = [...stagesMs.values()].reduce((sum, ms) => sum + ms, 0);
    // The profile covers the whole process life (start-up and stop too): its shares, not its
    // milliseconds, are applied to the main thread's CPU during the load.
    const stagesMicros = new Map([...stagesMs].sort((a, b) => b[1] - a[1]).map(([stage, ms]) => [stage, ((ms / profiledMs) * mainSecs * 1e6) / items]));
    return { label, figures, stagesMicros };
  } finally {
    rmSync(profileDir, { recursive: true, force: true });
  }
}

function print(b: Breakdown): void {
  const items = Math.max(1, b.figures.storedItems);
  const micros = (secs: number) => ((secs * 1e6) / items).toFixed(1);
  console.log(
    `cpu breakdown [${b.label}]: ${micros(b.figures.cpuSecs)} µs of CPU per stored item over all threads, the profiler's own thread aside (${b.figures.storedItems} items stored, ${Math.round(b.figures.spansPerSec)} spans/s + ${Math.round(b.figures.logsPerSec)} logs/s accepted, ${b.figures.lost} lost); load average ${b.figures.loadAverage.map((l) => l.toFixed(2)).join(' ')}`,
  );
  console.log(
    `  peak RSS of the process tree: anonymous ${b.figures.maxAnonMiB.toFixed(0)} MiB, file-backed ${b.figures.maxFileMiB.toFixed(0)} MiB; ${b.figures.retries} retry-later answers`,
  );
  for (const [group, secs] of b.figures.threadCpuSecs) console.log(`  ${group.padEnd(28)} ${micros(secs).padStart(6)} µs/item`);
  const background = [...b.figures.backgroundCpuSecs].sort((x, y) => y[1] - x[1]).filter(([, secs]) => secs > 0);
  console.log(`  engine background by thread name: ${background.map(([name, secs]) => `${name} ${micros(secs)}`).join(', ')}`);
  if (b.stagesMicros.size > 0) console.log(`  main thread by stage (V8 profile shares of its CPU):`);
  for (const [stage, us] of b.stagesMicros) console.log(`    ${stage.padEnd(42)} ${us.toFixed(1).padStart(6)} µs/item`);
}

export async function main(): Promise<Breakdown[]> {
  const seconds = Number(process.env.SVC_BENCH_CPU_SECS ?? 30);
  const rate = Number(process.env.SVC_BENCH_CPU_RATE ?? 10_000);
  const base = process.env.SVC_BENCH_CPU_BASE;
  const rounds = Number(process.env.SVC_BENCH_CPU_ROUNDS ?? 1);
  const profile = process.env.SVC_BENCH_CPU_PROFILE !== '0';
  const results: Breakdown[] = [];
  for (let round = 0; round < rounds; round++) {
    // Alternate which build goes first, so a drift in the machine's load falls on both.
    const order = base === undefined ? [undefined] : round % 2 === 0 ? [undefined, base] : [base, undefined];
    for (const root of order) {
      const result = await measure(root === undefined ? 'this build' : `base ${root}`, seconds, rate, profile, root);
      print(result);
      results.push(result);
    }
  }
  if (base !== undefined) {
    for (const label of new Set(results.map((r) => r.label))) {
      const perItem = results
        .filter((r) => r.label === label)
        .map((r) => (r.figures.cpuSecs * 1e6) / Math.max(1, r.figures.storedItems))
        .sort((a, b) => a - b);
      console.log(
        `cpu breakdown [${label}]: median ${perItem[Math.floor(perItem.length / 2)]!.toFixed(1)} µs per item over ${perItem.length} runs (${perItem.map((v) => v.toFixed(1)).join(', ')})`,
      );
    }
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
