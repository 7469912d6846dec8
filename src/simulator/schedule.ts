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

/** The range of each kind's intensity a benchmark varies over (see Fault.intensity). */
export const INTENSITY_RANGE: Record<FaultKind, readonly [min: number, max: number]> = {
  return_value: [0.3, 1],
  exception: [0.3, 1],
  cpu: [1.3, 3],
  network_delay: [50, 800],
  crash: [1, 1],
  slow_db: [3, 10],
};

/** A fault without its window: what a benchmark injects, one scenario each. */
export type FaultSpec = Omit<Fault, 'fromMs' | 'toMs'>;

/**
 * Faults for a benchmark of the ranking: `perKind` of each kind, the targets going round the kind's
 * valid targets in an order shuffled by the seed (so every target is used about equally), the
 * intensities spread evenly over the kind's range in a shuffled order.
 */
export function variedFaults(options: { seed: number; model: AppModel; perKind: number; kinds?: readonly FaultKind[] }): FaultSpec[] {
  const rng = new Rng(options.seed, 0xbe4c);
  const shuffled = <T>(items: T[]): T[] => {
    const out = [...items];
    for (let index = out.length - 1; index > 0; index--) {
      const other = rng.int(0, index);
      [out[index], out[other]] = [out[other] as T, out[index] as T];
    }
    return out;
  };
  const specs: FaultSpec[] = [];
  for (const kind of options.kinds ?? FAULT_KINDS) {
    const targets = shuffled(faultTargets(kind, options.model));
    const [min, max] = INTENSITY_RANGE[kind];
    const steps = shuffled(Array.from({ length: options.perKind }, (_, index) => index));
    for (let index = 0; index < options.perKind; index++) {
      const share = options.perKind === 1 ? 0.5 : (steps[index] ?? 0) / (options.perKind - 1);
      const intensity = Math.round((min + (max - min) * share) * 100) / 100;
      specs.push({ kind, service: targets[index % targets.length] ?? '', intensity });
    }
  }
  return specs;
}
