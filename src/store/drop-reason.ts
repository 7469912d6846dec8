import type { LogRow, SpanRow } from '../model/signals.js';
import { logInvalidReason, spanInvalidReason, type InvalidReason } from '../otlp/item-validity.js';
import { isStorable } from './lifetimes.js';

/** Why an item is not stored (so neither assembled nor mined): the store would never return it. */
export type DropReason = 'too_old' | InvalidReason;

/** Records may come from producers other than our ingest (e.g. a Collector's kafka exporter), so invalid items are checked again by every consumer. */
export function spanDropReason(span: SpanRow, nowNs: bigint): DropReason | undefined {
  return spanInvalidReason(span) ?? (isStorable(span.startNs, nowNs) ? undefined : 'too_old');
}

export function logDropReason(log: LogRow, nowNs: bigint): DropReason | undefined {
  return logInvalidReason(log) ?? (isStorable(log.tsNs, nowNs) ? undefined : 'too_old');
}
