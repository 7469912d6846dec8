/**
 * The steady-load half of bench/log-sort-order.ts: one table takes `logs` generated logs in 10k-log
 * batches, oldest first, with its merges running as the writer's inserts meet them, until no merge
 * is left. What it costs: the process's CPU per log over the whole load (inserts and the merges
 * they cause), the peak memory of the table's merges running at once (system.merges) and the
 * engine's tracked peak, sampled every SAMPLE_MS.
 */
import type { ChdbStore } from '../src/store/chdb-store.js';
import { insertGeneratedLogs } from './log-search-data.js';

const BATCH_ROWS = 10_000;
const SAMPLE_MS = 100;
/** Samples in a row without a merge and with the same part count that make a table settled. */
const IDLE_SAMPLES = 10;

export interface SteadyFigures {
  /** Process CPU per log, inserts and merges, the generator's own cost included. */
  cpuUs: number;
  secs: number;
  peakMergeBytes: number;
  peakTrackedBytes: number;
  partsLeft: number;
}

const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

/** Loads `table` (created by the caller, merges running) and waits until its merges are done. */
export async function steadyLoad(store: ChdbStore, table: string, logs: number, nowMs: number): Promise<SteadyFigures> {
  let peakMergeBytes = 0;
  let peakTrackedBytes = 0;
  let parts = 0;
  const sample = async (): Promise<number> => {
    const [row] = await store.query<{ merge: string | null; running: string; tracked: string; parts: string }>(
      `SELECT (SELECT sum(memory_usage) FROM system.merges WHERE database = currentDatabase() AND table = {table:String}) AS merge,
              (SELECT count() FROM system.merges WHERE database = currentDatabase() AND table = {table:String}) AS running,
              (SELECT value FROM system.metrics WHERE metric = 'MemoryTracking') AS tracked,
              (SELECT count() FROM system.parts WHERE database = currentDatabase() AND table = {table:String} AND active) AS parts`,
      { table },
    );
    peakMergeBytes = Math.max(peakMergeBytes, Number(row?.merge ?? 0));
    peakTrackedBytes = Math.max(peakTrackedBytes, Number(row?.tracked ?? 0));
    const now = Number(row?.parts ?? 0);
    const steady = Number(row?.running ?? 0) === 0 && now === parts;
    parts = now;
    return steady ? 0 : 1;
  };
  const pause = () => new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
  const cpu = cpuMs();
  const started = performance.now();
  let loading = true;
  const sampler = (async () => {
    while (loading) {
      await sample();
      await pause();
    }
  })();
  for (let offset = Math.max(0, logs - BATCH_ROWS); ; offset = Math.max(0, offset - BATCH_ROWS)) {
    await insertGeneratedLogs(store, table, logs, nowMs, offset, Math.min(BATCH_ROWS, logs - offset));
    if (offset === 0) break;
  }
  loading = false;
  await sampler;
  for (let idle = 0; idle < IDLE_SAMPLES;) {
    idle = (await sample()) === 0 ? idle + 1 : 0;
    await pause();
  }
  return {
    cpuUs: ((cpuMs() - cpu) * 1000) / logs,
    secs: (performance.now() - started) / 1000 - (IDLE_SAMPLES * SAMPLE_MS) / 1000,
    peakMergeBytes,
    peakTrackedBytes,
    partsLeft: parts,
  };
}
