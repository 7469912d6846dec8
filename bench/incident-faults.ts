/**
 * Incident ranking on the fault simulator: faults of every kind injected on varied services (and
 * databases) with varied strength, each starting 0 to 10 minutes into a 15-minute window (after a
 * fault-free hour) and lasting to its end, under the
 * simulator's background noise (chronic errors, drifting traffic, pauses, background jobs). Each
 * scenario runs the simulator's traces through the assembler's analysis and its logs through the
 * logminer's miner, in memory (src/testing/incident-harness.ts), and ranks the window. Prints, per
 * kind, how often the first suspect, and one of the first three, is the injected service.
 * Usage: node dist/bench/incident-faults.js [faults per kind, default 8] [traces/s, default 3]
 */
import { loadavg } from 'node:os';
import { rankScenario } from '../src/testing/incident-harness.js';
import { DEFAULT_INTENSITY, expectedSuspect, FAULT_KINDS, faultTargets, type Fault, type FaultKind } from '../src/simulator/faults.js';
import { Rng } from '../src/simulator/random.js';
import { shopModel } from '../src/simulator/shop.js';

/** A fixed hour: runs are comparable and repeatable. */
const WINDOW_FROM_MS = Date.UTC(2026, 10, 2, 14, 0, 0);
const WINDOW_MINUTES = 15;
/** Minutes into the window a fault starts: it lasts to the window's end (an incident still going on), 15 to 5 minutes. */
const START_MINUTES = [0, 5, 8, 10] as const;
/** The strength range of each kind the issue names (return value and exception: share of executions). */
const INTENSITY_RANGE: Record<FaultKind, [number, number]> = {
  return_value: [0.3, 1],
  exception: [0.3, 1],
  cpu: [1.3, 3],
  network_delay: [50, 800],
  crash: [1, 1],
  slow_db: [3, 10],
};

export interface FaultResult {
  fault: Fault;
  rank: number | null;
  first: string | null;
}

/** The scenarios: per kind, `perKind` faults rotating over the kind's targets with random strength. */
export function faultScenarios(perKind: number, seed = 1): Fault[] {
  const rng = new Rng(seed);
  const model = shopModel();
  const faults: Fault[] = [];
  for (const kind of FAULT_KINDS) {
    const targets = faultTargets(kind, model);
    for (let i = 0; i < perKind; i++) {
      const [low, high] = INTENSITY_RANGE[kind];
      const intensity = kind === 'crash' ? DEFAULT_INTENSITY.crash : low + (high - low) * rng.next();
      const startMinute = START_MINUTES[Math.floor(i / targets.length + i) % START_MINUTES.length] ?? 0;
      faults.push({
        kind,
        service: targets[i % targets.length] ?? '',
        fromMs: WINDOW_FROM_MS + startMinute * 60_000,
        toMs: WINDOW_FROM_MS + WINDOW_MINUTES * 60_000,
        intensity,
      });
    }
  }
  return faults;
}

export function runFault(fault: Fault, seed: number, tracesPerSec: number): FaultResult {
  const report = rankScenario({ seed, tracesPerSec, windowFromMs: WINDOW_FROM_MS, windowMinutes: WINDOW_MINUTES, faults: [fault] });
  const expected = expectedSuspect(fault);
  const index = report.suspects.findIndex((s) => s.service === expected);
  return { fault, rank: index === -1 ? null : index + 1, first: report.suspects[0]?.service ?? null };
}

export async function main(argv: string[] = []): Promise<void> {
  const perKind = Number(argv[0] ?? 8);
  const tracesPerSec = Number(argv[1] ?? 3);
  const faults = faultScenarios(perKind);
  const started = performance.now();
  const byKind = new Map<FaultKind, FaultResult[]>();
  for (const [i, fault] of faults.entries()) {
    const result = runFault(fault, 1000 + i, tracesPerSec);
    const list = byKind.get(fault.kind) ?? [];
    list.push(result);
    byKind.set(fault.kind, list);
    if (result.rank !== 1)
      console.log(
        `  miss: ${fault.kind} on ${fault.service} (strength ${fault.intensity?.toFixed(2)}, last ${(fault.toMs - fault.fromMs) / 60_000} min): ranked ${result.rank ?? 'not listed'}, first ${result.first ?? 'none'}`,
      );
  }
  let first = 0;
  let top3 = 0;
  for (const [kind, results] of byKind) {
    const f = results.filter((r) => r.rank === 1).length;
    const t = results.filter((r) => r.rank !== null && r.rank <= 3).length;
    first += f;
    top3 += t;
    console.log(`${kind}: first ${f}/${results.length}, first three ${t}/${results.length}`);
  }
  console.log(
    `all ${faults.length} faults at ${tracesPerSec} traces/s: first suspect ${first}/${faults.length} (${((100 * first) / faults.length).toFixed(1)} %), first three ${top3}/${faults.length} (${((100 * top3) / faults.length).toFixed(1)} %), ${((performance.now() - started) / 1000).toFixed(0)} s, load average ${loadavg()[0]?.toFixed(1)}`,
  );
}

if (process.argv[1]?.endsWith('incident-faults.js')) await main(process.argv.slice(2));
