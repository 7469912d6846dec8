/**
 * Endpoint baselines from the last window's traces: how long the endpoint normally takes (p99) and
 * which operations its normal traces contain and how long they take (presence ratio, p95).
 */
import type { ThresholdSettings } from '../config/settings.js';
import { quantileSorted, sortBigints } from './quantile.js';
import type { BaselineSample } from './types.js';

/** Outliers are traces above this many times the window's median duration. */
export const OUTLIER_MEDIAN_FACTOR = 10n;

export interface OpBaseline {
  /** Share of the baseline traces that contain the op, 0..1. */
  presence: number;
  /** p95 of the op's per-trace total duration, over the traces that contain it. */
  p95_ns: bigint;
}

export interface EndpointBaseline {
  /** Non-error traces kept after outlier exclusion. */
  trace_count: number;
  /** trace_count >= thresholds.min_baseline_traces. */
  trusted: boolean;
  p50_ns: bigint;
  p99_ns: bigint;
  /** Traces above this were excluded as outliers. */
  outlier_cap_ns: bigint;
  ops: Map<string, OpBaseline>;
}

/** The key under which an endpoint's baseline is stored. */
export function endpointKey(service: string, name: string): string {
  return `${service}\u0000${name}`;
}

/** One baseline per endpoint that has at least one non-error trace in `samples`. */
export function buildBaselines(samples: ReadonlyMap<string, readonly BaselineSample[]>, thresholds: ThresholdSettings): Map<string, EndpointBaseline> {
  const out = new Map<string, EndpointBaseline>();
  for (const [key, list] of samples) {
    const baseline = buildBaseline(list, thresholds);
    if (baseline !== null) out.set(key, baseline);
  }
  return out;
}

/** One endpoint's baseline; null when the window holds no non-error trace of it. */
export function buildBaseline(samples: readonly BaselineSample[], thresholds: ThresholdSettings): EndpointBaseline | null {
  const normal = samples.filter((s) => !s.is_error);
  if (normal.length === 0) return null;
  // The cap is bootstrapped from the median, which a minority of pathological traces (a hung
  // request of several minutes) cannot move, so they cannot inflate the p99 they are judged by.
  const median = quantileSorted(sortBigints(normal.map((s) => s.duration_ns)), 0.5);
  const capNs = median * OUTLIER_MEDIAN_FACTOR;
  const kept = normal.filter((s) => s.duration_ns <= capNs);
  const durations = sortBigints(kept.map((s) => s.duration_ns));

  const opDurations = new Map<string, bigint[]>();
  for (const sample of kept) {
    for (const { op, duration_ns } of sample.ops) {
      let list = opDurations.get(op);
      if (list === undefined) opDurations.set(op, (list = []));
      list.push(duration_ns);
    }
  }
  const ops = new Map<string, OpBaseline>();
  for (const [op, list] of opDurations) {
    ops.set(op, { presence: list.length / kept.length, p95_ns: quantileSorted(sortBigints(list), 0.95) });
  }
  return {
    trace_count: kept.length,
    trusted: kept.length >= thresholds.min_baseline_traces,
    p50_ns: quantileSorted(durations, 0.5),
    p99_ns: quantileSorted(durations, 0.99),
    outlier_cap_ns: capNs,
    ops,
  };
}
