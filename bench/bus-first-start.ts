/**
 * The embedded bus's first start on a new data directory: open, topics, and the first publish
 * acknowledged (written and synced), each start in a process of its own, with 64 MiB segments.
 * With SVC_BENCH_BUS_BASE set to another build's root, that build's starts are interleaved with
 * this one's (base, this, base, this...), for an A/B on a shared machine.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const ROUNDS = Number(process.env.SVC_BENCH_BUS_ROUNDS ?? 4);

/** Runs in the child: prints the milliseconds to open a new bus and have one publish acknowledged. */
const CHILD = `(async () => {
const { mkdtemp, rm } = await import('node:fs/promises');
const { join } = await import('node:path');
const { tmpdir } = await import('node:os');
const { DiskBus } = await import(process.argv[1] + '/dist/src/bus/disk/disk-bus.js');
const dir = await mkdtemp(join(tmpdir(), 'svc-bench-first-start-'));
const started = process.hrtime.bigint();
const bus = await DiskBus.open({ dir, maxBytes: 512 * 1024 * 1024, offsetsFlushMs: 1000 });
await bus.ensureTopics([{ name: 'signals', partitions: 4, retentionMs: -1, maxMessageBytes: 1 << 20 }]);
const openMs = Number(process.hrtime.bigint() - started) / 1e6;
await bus.publish('signals', [{ key: 'k', value: Buffer.alloc(1000, 1), headers: undefined }]);
const ackedMs = Number(process.hrtime.bigint() - started) / 1e6;
await bus.close();
await rm(dir, { recursive: true, force: true });
console.log(JSON.stringify({ openMs, ackedMs }));
})();
`;

function startOnce(root: string): { openMs: number; ackedMs: number } {
  const out = execFileSync(process.execPath, ['-e', CHILD, root], { encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as { openMs: number; ackedMs: number };
}

export async function main(): Promise<void> {
  const self = fileURLToPath(new URL('../..', import.meta.url));
  const base = process.env.SVC_BENCH_BUS_BASE;
  const builds: [string, string][] =
    base === undefined
      ? [['this', self]]
      : [
          ['base', base],
          ['this', self],
        ];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [name, root] of builds) {
      const { openMs, ackedMs } = startOnce(root);
      const load = (os.loadavg().at(0) ?? 0).toFixed(2);
      console.log(`bus first start round ${round} ${name}: open ${openMs.toFixed(0)} ms, first publish acked at ${ackedMs.toFixed(0)} ms (load ${load})`);
    }
  }
}
