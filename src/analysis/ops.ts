/** Operations of a trace (`service: span name`) with their total time, for baselines and diffs. */
import type { SpanRow } from '../model/signals.js';
import type { OpDuration } from './types.js';

/** The op key of a span. */
export function opKey(span: SpanRow): string {
  return `${span.serviceName}: ${span.name}`;
}

/** Every op present, sorted by key, with the sum of its spans' durations. */
export function traceOps(spans: readonly SpanRow[]): OpDuration[] {
  const totals = new Map<string, bigint>();
  for (const span of spans) {
    const key = opKey(span);
    totals.set(key, (totals.get(key) ?? 0n) + (span.endNs - span.startNs));
  }
  return [...totals.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map(([op, duration_ns]) => ({ op, duration_ns }));
}
