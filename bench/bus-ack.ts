/**
 * The wait an exporter's answer spends on the embedded bus: one publisher, each publish an export's
 * worth (64 records of 2.3 KiB, about a 512-span export) awaited until written and synced, on a new
 * log. With SVC_BENCH_BUS_BASE (a checkout of an older build, built), that build's bus runs in turn
 * with this one, each round in processes of their own, so a change to the write and sync path is
 * compared on the same machine at the same moment.
 *   SVC_BENCH_BUS_SECS    seconds per run (default 6)
 *   SVC_BENCH_BUS_ROUNDS  rounds (default 3)
 *   SVC_BENCH_BUS_BASE    the older build's root (optional)
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const RECORDS_PER_PUBLISH = 64;
const VALUE_BYTES = 2300;
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface BusModule {
  DiskBus: {
    open(options: { dir: string; maxBytes: number }): Promise<{
      ensureTopics(topics: { name: string; partitions: number; retentionMs: number; maxMessageBytes: number }[]): Promise<void>;
      publish(topic: string, messages: { key: string; value: Buffer; headers?: Record<string, string> }[]): Promise<void>;
      close(): Promise<void>;
    }>;
  };
}

/** In a child process: publishes for `seconds` with the bus of the build at `root`; prints the latencies' summary as JSON. */
async function child(root: string, seconds: number): Promise<void> {
  const { DiskBus } = (await import(pathToFileURL(join(root, 'dist/src/bus/disk/disk-bus.js')).href)) as BusModule;
  const dir = await mkdtemp(join(os.tmpdir(), 'svc-bench-bus-ack-'));
  try {
    const bus = await DiskBus.open({ dir, maxBytes: 1 << 30 });
    await bus.ensureTopics([{ name: 'signals', partitions: 12, retentionMs: -1, maxMessageBytes: 1 << 20 }]);
    const latenciesMs: number[] = [];
    const deadlineMs = Date.now() + seconds * 1000;
    for (let sequence = 0; Date.now() < deadlineMs; sequence++) {
      const messages = Array.from({ length: RECORDS_PER_PUBLISH }, (_, i) => ({
        key: `trace-${sequence}-${i}`,
        value: Buffer.alloc(VALUE_BYTES, ((i + sequence) & 0xff) | 1),
        headers: { 'svc-signal': 'traces' },
      }));
      const started = process.hrtime.bigint();
      await bus.publish('signals', messages);
      latenciesMs.push(Number(process.hrtime.bigint() - started) / 1e6);
    }
    await bus.close();
    latenciesMs.sort((a, b) => a - b);
    const meanMs = latenciesMs.reduce((sum, ms) => sum + ms, 0) / latenciesMs.length;
    const at = (q: number) => latenciesMs[Math.min(latenciesMs.length - 1, Math.floor(q * latenciesMs.length))] ?? NaN;
    console.log(JSON.stringify({ publishes: latenciesMs.length, p50Ms: at(0.5), meanMs, p90Ms: at(0.9) }));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function main(): Promise<void> {
  const seconds = Number(process.env.SVC_BENCH_BUS_SECS ?? 6);
  const rounds = Number(process.env.SVC_BENCH_BUS_ROUNDS ?? 3);
  const base = process.env.SVC_BENCH_BUS_BASE ?? '';
  const builds =
    base === ''
      ? [['this build', ROOT]]
      : [
          ['this build', ROOT],
          ['base', base],
        ];
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? builds : [...builds].reverse();
    for (const [name, root] of order) {
      const run = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', root!, String(seconds)], { encoding: 'utf8' });
      const line = run.stdout.trim().split('\n').pop() ?? '';
      if (run.status !== 0 || !line.startsWith('{')) throw new Error(`bus-ack child for ${name} failed: ${run.stderr}`);
      const result = JSON.parse(line) as { publishes: number; p50Ms: number; meanMs: number; p90Ms: number };
      console.log(
        `bus ack, round ${round + 1}, ${name}: ${result.publishes} publishes of ${RECORDS_PER_PUBLISH} x ${VALUE_BYTES} B in ${seconds} s, median ${result.p50Ms.toFixed(2)} ms, mean ${result.meanMs.toFixed(2)} ms, p90 ${result.p90Ms.toFixed(2)} ms; load average ${os
          .loadavg()
          .map((load) => load.toFixed(2))
          .join(' ')}`,
      );
    }
  }
}

if (process.argv[2] === '--child') await child(process.argv[3]!, Number(process.argv[4]));
else if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
