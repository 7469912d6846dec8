/**
 * A schedule of faults that come and go, for `svc demo`: one every `everyMs`, lasting `lastingMs`,
 * rotating through the kinds, each on a target drawn (seeded) from the kind's valid targets.
 */
import { FAULT_KINDS, faultTargets, type Fault, type FaultKind } from './faults.js';
import type { AppModel } from './model.js';
import { Rng } from './random.js';

export interface ScheduleOptions {
  seed: number;
  model: AppModel;
  startMs: number;
  endMs: number;
  /** The first fault starts this long after startMs. */
  firstAfterMs: number;
  everyMs: number;
  lastingMs: number;
  /** The rotation; default every kind, the ones that show fastest first. */
  kinds?: readonly FaultKind[];
}

/** The order kinds come in by default: an error first (seen within a minute), then the quieter kinds. */
export const DEMO_KIND_ORDER: readonly FaultKind[] = ['return_value', 'cpu', 'network_delay', 'exception', 'crash', 'slow_db'];

export function faultSchedule(options: ScheduleOptions): Fault[] {
  const kinds = options.kinds ?? DEMO_KIND_ORDER;
  const rng = new Rng(options.seed, 0x5c4ed);
  const faults: Fault[] = [];
  for (let index = 0, fromMs = options.startMs + options.firstAfterMs; fromMs < options.endMs; index++, fromMs += options.everyMs) {
    const kind = kinds[index % kinds.length] ?? FAULT_KINDS[0];
    faults.push({ kind, service: rng.pick(faultTargets(kind, options.model)), fromMs, toMs: Math.min(options.endMs, fromMs + options.lastingMs) });
  }
  return faults;
}
