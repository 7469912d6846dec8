/**
 * The embedded bus's cost to the main thread and its answer wait, for one publisher and for several
 * at once: each publisher publishes an export's worth of records (64 records of 2.3 KiB keyed by a
 * trace id, with the headers ingest sets, about a 512-span export) and awaits it until written
 * and synced, then publishes again. Reported per run: the main thread's CPU per record, the bus I/O
 * threads' and the whole process's (from /proc, per thread), and the publishes' wait (mean, median,
 * p99). With SVC_BENCH_BUS_BASE (a checkout of an older build, built), that build's bus runs in turn
 * with this one, each run in a process of its own, base and this build interleaved.
 *   SVC_BENCH_BUS_SECS        seconds per run (default 5)
 *   SVC_BENCH_BUS_ROUNDS      rounds (default 3)
 *   SVC_BENCH_BUS_PUBLISHERS  publishers at once, a comma-separated list of runs (default 1,8)
 *   SVC_BENCH_BUS_BASE        the older build's root (optional)
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { readThreadTicks } from './thread-cpu.js';

const RECORDS_PER_PUBLISH = 64;
const VALUE_BYTES = 2300;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const US_PER_TICK = 10_000;
/** The headers ingest sets on a span record (src/ingest/records.ts). */
const EXPORT_HEADERS: Record<string, string> = Object.freeze({ 'svc-signal': 'traces', 'svc-items': '8', 'svc-key': 'trace' });

interface BusModule {
  DiskBus: {
    open(options: { dir: string; maxBytes: number }): Promise<{
      ensureTopics(topics: { name: string; partitions: number; retentionMs: number; maxMessageBytes: number }[]): Promise<void>;
      publish(topic: string, messages: { key: string; value: Buffer; headers?: Record<string, string> }[]): Promise<void>;
      close(): Promise<void>;
    }>;
  };
}

interface RunResult {
  records: number;
  mainUsPerRecord: number;
  busIoUsPerRecord: number;
  processUsPerRecord: number;
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
}

/** CPU ticks of the main thread, of the bus's I/O threads and of the whole process so far. */
function ticksNow(): { main: number; busIo: number; all: number } {
  const ticks = { main: 0, busIo: 0, all: 0 };
  for (const [tid, { name, ticks: used }] of readThreadTicks(process.pid)) {
    ticks.all += used;
    if (tid === process.pid) ticks.main += used;
    else if (name === 'svc-bus-io') ticks.busIo += used;
  }
  return ticks;
}

/** An export's records: distinct 32-hex trace ids as keys, values of distinct bytes. */
function exportRecords(sequence: number): { key: string; value: Buffer; headers: Record<string, string> }[] {
  return Array.from({ length: RECORDS_PER_PUBLISH }, (_, i) => ({
    key: (sequence * RECORDS_PER_PUBLISH + i).toString(16).padStart(32, '0'),
    value: Buffer.alloc(VALUE_BYTES, ((i + sequence) & 0xff) | 1),
    headers: EXPORT_HEADERS,
  }));
}

/** In a child process: `publishers` publish for `seconds` with the bus of the build at `root`; prints the run's figures as JSON. */
async function child(root: string, seconds: number, publishers: number): Promise<void> {
  const { DiskBus } = (await import(pathToFileURL(join(root, 'dist/src/bus/disk/disk-bus.js')).href)) as BusModule;
  const dir = await mkdtemp(join(os.tmpdir(), 'svc-bench-bus-publish-'));
  try {
    const bus = await DiskBus.open({ dir, maxBytes: 4 * 2 ** 30 });
    await bus.ensureTopics([{ name: 'signals', partitions: 12, retentionMs: -1, maxMessageBytes: 1 << 20 }]);
    // Warm-up, not counted: the I/O threads started, the code compiled.
    for (let sequence = 0; sequence < 50; sequence++) await bus.publish('signals', exportRecords(sequence));
    const latenciesMs: number[] = [];
    const before = ticksNow();
    const deadlineMs = Date.now() + seconds * 1000;
    let nextSequence = 1000;
    await Promise.all(
      Array.from({ length: publishers }, async () => {
        while (Date.now() < deadlineMs) {
          const messages = exportRecords(nextSequence++);
          const started = process.hrtime.bigint();
          await bus.publish('signals', messages);
          latenciesMs.push(Number(process.hrtime.bigint() - started) / 1e6);
        }
      }),
    );
    const after = ticksNow();
    await bus.close();
    latenciesMs.sort((a, b) => a - b);
    const records = latenciesMs.length * RECORDS_PER_PUBLISH;
    const at = (q: number) => latenciesMs[Math.min(latenciesMs.length - 1, Math.floor(q * latenciesMs.length))] ?? NaN;
    const result: RunResult = {
      records,
      mainUsPerRecord: ((after.main - before.main) * US_PER_TICK) / records,
      busIoUsPerRecord: ((after.busIo - before.busIo) * US_PER_TICK) / records,
      processUsPerRecord: ((after.all - before.all) * US_PER_TICK) / records,
      meanMs: latenciesMs.reduce((sum, ms) => sum + ms, 0) / latenciesMs.length,
      p50Ms: at(0.5),
      p99Ms: at(0.99),
    };
    console.log(JSON.stringify(result));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function main(): Promise<void> {
  const seconds = Number(process.env.SVC_BENCH_BUS_SECS ?? 5);
  const rounds = Number(process.env.SVC_BENCH_BUS_ROUNDS ?? 3);
  const publisherCounts = (process.env.SVC_BENCH_BUS_PUBLISHERS ?? '1,8').split(',').map(Number);
  const base = process.env.SVC_BENCH_BUS_BASE ?? '';
  const builds: [string, string][] =
    base === ''
      ? [['this build', ROOT]]
      : [
          ['this build', ROOT],
          ['base', base],
        ];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? builds : [...builds].reverse();
    for (const publishers of publisherCounts) {
      for (const [name, root] of order) {
        const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', root, String(seconds), String(publishers)], {
          encoding: 'utf8',
        });
        const line = run.stdout.trim().split('\n').pop() ?? '';
        if (run.status !== 0 || !line.startsWith('{')) throw new Error(`bus-publish-cpu child for ${name} failed: ${run.stderr}`);
        const r = JSON.parse(line) as RunResult;
        console.log(
          `bus publish, round ${round + 1}, ${publishers} publisher(s), ${name}: ${r.records} records in ${seconds} s; CPU per record main ${r.mainUsPerRecord.toFixed(2)} µs, bus I/O ${r.busIoUsPerRecord.toFixed(2)} µs, process ${r.processUsPerRecord.toFixed(2)} µs; wait mean ${r.meanMs.toFixed(2)} ms, median ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms; load average ${os
            .loadavg()
            .map((load) => load.toFixed(2))
            .join(' ')}`,
        );
      }
    }
  }
}

if (process.argv[2] === '--child') await child(process.argv[3]!, Number(process.argv[4]), Number(process.argv[5]));
else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
