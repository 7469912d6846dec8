/** What a trace's operations do differently from its endpoint's baseline traces. */
import type { ThresholdSettings } from '../config/settings.js';
import type { EndpointBaseline } from './baseline.js';
import { slowerOpLimitNs } from './thresholds.js';
import type { BaselineDiff, OpDuration, SlowerOp } from './types.js';

/** The diff of `ops` against a trusted baseline; null when the baseline is missing or untrusted. */
export function baselineDiff(ops: readonly OpDuration[], baseline: EndpointBaseline | null, thresholds: ThresholdSettings): BaselineDiff | null {
  if (baseline === null || !baseline.trusted) return null;
  const present = new Set<string>();
  const newOps: string[] = [];
  const slower: (SlowerOp & { excessNs: bigint })[] = [];
  for (const { op, duration_ns } of ops) {
    present.add(op);
    const known = baseline.ops.get(op);
    if (known === undefined || known.presence < thresholds.new_op_presence) newOps.push(op);
    if (known !== undefined && duration_ns > slowerOpLimitNs(known.p95_ns, thresholds)) {
      slower.push({ op, duration_ns, baseline_p95_ns: known.p95_ns, excessNs: duration_ns - known.p95_ns });
    }
  }
  const missingOps: string[] = [];
  for (const [op, known] of baseline.ops) {
    if (known.presence > thresholds.missing_op_presence && !present.has(op)) missingOps.push(op);
  }
  // The biggest slowdown first: it is the one a reader should look at.
  slower.sort((a, b) => (a.excessNs !== b.excessNs ? (a.excessNs > b.excessNs ? -1 : 1) : a.op < b.op ? -1 : 1));
  return {
    new_ops: newOps.sort(),
    missing_ops: missingOps.sort(),
    slower_ops: slower.map(({ op, duration_ns, baseline_p95_ns }) => ({ op, duration_ns, baseline_p95_ns })),
  };
}
