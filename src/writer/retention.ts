import type { LogRow, SpanRow } from '../model/signals.js';
import { logInvalidReason, spanInvalidReason, type InvalidReason } from '../otlp/item-validity.js';

/** Raw spans and logs live 3 days; the writer drops items stamped older than that, or 0, at insert. */
export const RAW_RETENTION_NS = 3n * 24n * 3600n * 1_000_000_000n;

/** Whether an item stamped `tsNs` is still inside the raw lifetime at `nowNs`. */
export function isStorable(tsNs: bigint, nowNs: bigint): boolean {
  return tsNs !== 0n && tsNs >= nowNs - RAW_RETENTION_NS;
}

/** Why the writer drops an item: the store would never return it. */
export type DropReason = 'too_old' | InvalidReason;

/** Records may come from producers other than our ingest (e.g. a Collector's kafka exporter), so invalid items are checked again here. */
export function spanDropReason(span: SpanRow, nowNs: bigint): DropReason | undefined {
  return spanInvalidReason(span) ?? (isStorable(span.startNs, nowNs) ? undefined : 'too_old');
}

export function logDropReason(log: LogRow, nowNs: bigint): DropReason | undefined {
  return logInvalidReason(log) ?? (isStorable(log.tsNs, nowNs) ? undefined : 'too_old');
}
