/**
 * The embedded engine's CPU per mined log for the template_hits table (one row per log line), in a
 * process of its own: batches of 5,000 hits (the log miner's max_batch; at 10k logs/s it flushes
 * about two a second) inserted back to back, then the merges left to settle. Counted from /proc
 * per thread: the inserts' threads and the merge threads, µs per hit, with the parts left.
 *   node dist/bench/template-hits-costs.js [checkout root]
 *   SVC_BENCH_TH_BATCHES  batches of 5,000 hits (default 240: 1.2M hits, two minutes at 10k/s)
 *   SVC_BENCH_TH_SQL      statements run after the migration, separated by ';' (a variant to price)
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ChdbStore } from '../src/store/chdb-store.js';
import type * as ChdbStoreModule from '../src/store/chdb-store.js';
import type * as MigrateModule from '../src/store/migrate.js';
import type * as TemplateHitsModule from '../src/store/template-hits.js';
import type { TemplateHitRow } from '../src/store/template-hits.js';

const BATCH_ROWS = 5_000;
const TICK_SECS = 1 / 100;

/** CPU seconds of the engine's merge threads and of its other threads (not the main thread nor V8's). */
function engineSecs(): { merges: number; other: number } {
  const secs = { merges: 0, other: 0 };
  for (const tid of readdirSync('/proc/self/task')) {
    if (tid === String(process.pid)) continue;
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (name === 'node') continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      secs[name === 'MergeMutate' ? 'merges' : 'other'] += (Number(fields[11]) + Number(fields[12])) * TICK_SECS;
    } catch {
      // ended meanwhile
    }
  }
  return secs;
}

async function settle(store: ChdbStore): Promise<string> {
  let quiet = 0;
  let lastParts = '';
  while (quiet < 3) {
    await new Promise((r) => setTimeout(r, 400));
    const [state] = await store.query<{ merges: string; parts: string }>(
      `SELECT (SELECT count() FROM system.merges WHERE database = currentDatabase()) AS merges,
              (SELECT toString(count()) FROM system.parts WHERE database = currentDatabase() AND table = 'template_hits' AND active) AS parts`,
    );
    quiet = state?.merges === '0' && state.parts === lastParts ? quiet + 1 : 0;
    lastParts = state?.parts ?? '';
  }
  return lastParts;
}

/** Hits as the log miner writes them: 50 services of 40 templates, half the lines in traces. */
function hits(batch: number, baseNs: bigint): TemplateHitRow[] {
  return Array.from({ length: BATCH_ROWS }, (_, i) => {
    const n = batch * BATCH_ROWS + i;
    return {
      tsNs: baseNs + BigInt(n) * 100_000n,
      templateId: String(((n % 2000) * 2654435761) % 2 ** 52),
      service: `service-${n % 50}`,
      logId: String((BigInt(n) * 11400714819323198485n) % 2n ** 63n),
      traceId: n % 2 === 0 ? (n >> 4).toString(16).padStart(32, '0') : '',
      spanId: n % 2 === 0 ? n.toString(16).padStart(16, '0') : '',
      severityNumber: n % 10 === 0 ? 17 : 9,
    };
  });
}

export async function main(args: readonly string[] = []): Promise<void> {
  const root = resolve(args[0] ?? new URL('../..', import.meta.url).pathname);
  const load = <T>(path: string): Promise<T> => import(pathToFileURL(join(root, 'dist', path)).href);
  const { ChdbStore } = await load<typeof ChdbStoreModule>('src/store/chdb-store.js');
  const { migrate } = await load<typeof MigrateModule>('src/store/migrate.js');
  const { insertTemplateHits } = await load<typeof TemplateHitsModule>('src/store/template-hits.js');
  const batches = Number(process.env.SVC_BENCH_TH_BATCHES ?? 240);
  const extra = (process.env.SVC_BENCH_TH_SQL ?? '').split(';').filter((s) => s.trim() !== '');
  const dir = mkdtempSync(join(tmpdir(), 'svc-template-hits-costs-'));
  const store = await ChdbStore.open(dir, 'svc_bench');
  try {
    await migrate(store);
    for (const statement of extra) await store.exec(statement);
    await settle(store);
    const baseNs = BigInt(Date.now() - 600_000) * 1_000_000n;
    const before = engineSecs();
    const startedMs = Date.now();
    for (let b = 0; b < batches; b++) await insertTemplateHits(store, hits(b, baseNs));
    const insertedMs = Date.now() - startedMs;
    const parts = await settle(store);
    const after = engineSecs();
    const items = batches * BATCH_ROWS;
    const us = (secs: number) => ((secs * 1e6) / items).toFixed(2);
    console.log(
      `template-hits-costs ${args[0] ?? 'this build'}${extra.length > 0 ? ` [sql ${extra.join('; ')}]` : ''}: merges ${us(after.merges - before.merges)} µs/hit, ` +
        `the engine's other threads ${us(after.other - before.other)} (inserts ${insertedMs} ms); ${parts} parts left; load ${os.loadavg()[0]!.toFixed(2)}`,
    );
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main(process.argv.slice(2));
