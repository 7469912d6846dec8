/**
 * The "max(base x factor, base + margin)" limits of the Thresholds settings. Computed in doubles:
 * durations are far below 2^53 ns (104 days), so the conversion is exact where it matters.
 */
import type { ThresholdSettings } from '../config/settings.js';
import { NS_PER_MS } from '../util/time-units.js';

/** max(base x factor, base + margin): the factor rules long durations, the margin short ones. */
export function limitNs(baseNs: bigint, factor: number, marginMs: number): bigint {
  const base = Number(baseNs);
  return BigInt(Math.ceil(Math.max(base * factor, base + marginMs * NS_PER_MS)));
}

/** A trace slower than this, against an endpoint p99, is slow. */
export function slowTraceLimitNs(p99Ns: bigint, thresholds: ThresholdSettings): bigint {
  return limitNs(p99Ns, thresholds.slow_trace_factor, thresholds.slow_trace_margin_ms);
}

/** An op slower than this, against its baseline p95, is a slower op. */
export function slowerOpLimitNs(p95Ns: bigint, thresholds: ThresholdSettings): bigint {
  return limitNs(p95Ns, thresholds.slower_op_factor, thresholds.slower_op_margin_ms);
}
