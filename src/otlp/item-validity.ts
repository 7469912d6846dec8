import type { LogRow, SpanRow } from '../model/signals.js';
import { ZERO_SPAN_ID, ZERO_TRACE_ID } from './hex.js';

/**
 * The store keeps nanosecond times as Int64 (2262-04-11), while OTLP sends them as fixed64: a time
 * past this would wrap to a negative number and the item could never be read back.
 */
export const MAX_STORABLE_NS = (1n << 63n) - 1n;

/** Why an item can never be stored or read back, whenever it arrives. */
export type InvalidReason = 'invalid_id' | 'time_out_of_range';

/**
 * All-zero trace or span ids are invalid in OTLP and W3C trace context (a log's all-zero trace id
 * already reads as "no trace context"), and times that do not fit the store are never returned.
 */
export function spanInvalidReason(span: SpanRow): InvalidReason | undefined {
  if (span.traceId === ZERO_TRACE_ID || span.spanId === ZERO_SPAN_ID) return 'invalid_id';
  if (span.startNs > MAX_STORABLE_NS || span.endNs > MAX_STORABLE_NS) return 'time_out_of_range';
  return undefined;
}

export function logInvalidReason(log: LogRow): InvalidReason | undefined {
  if (log.tsNs > MAX_STORABLE_NS || log.observedTsNs > MAX_STORABLE_NS) return 'time_out_of_range';
  return undefined;
}

/** Counts of dropped items by reason, so a caller can add them to its metric in one go. */
export class DropTally<R extends string> {
  readonly counts = new Map<R, number>();
  add(reason: R): void {
    this.counts.set(reason, (this.counts.get(reason) ?? 0) + 1);
  }
  get total(): number {
    let sum = 0;
    for (const n of this.counts.values()) sum += n;
    return sum;
  }
}

/** The items that are valid, and a tally of the others by reason. */
export function keepValid<T>(items: T[], reasonOf: (item: T) => InvalidReason | undefined): { kept: T[]; dropped: DropTally<InvalidReason> } {
  const dropped = new DropTally<InvalidReason>();
  let kept = items;
  for (let i = 0; i < items.length; i++) {
    const reason = reasonOf(items[i]);
    if (reason === undefined) {
      if (kept !== items) kept.push(items[i]);
      continue;
    }
    // Copy only once something is dropped: the common export keeps every item.
    if (kept === items) kept = items.slice(0, i);
    dropped.add(reason);
  }
  return { kept, dropped };
}
