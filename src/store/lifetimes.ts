/**
 * Table lifetimes from the contract ("Retention of stored data"). ClickHouse TTL removes rows
 * lazily in merges, so every read also filters by these; migrations write the same spans as TTL.
 */

import { DAY_MS } from '../util/time-units.js';

export const LIFETIME_MS = {
  spans: 3 * DAY_MS,
  logs: 3 * DAY_MS,
  template_hits: 3 * DAY_MS,
  trace_summaries: 2 * DAY_MS,
  stories: 7 * DAY_MS,
  log_alerts: 7 * DAY_MS,
  metric_samples: 7 * DAY_MS,
  service_edges: 7 * DAY_MS,
  templates: 30 * DAY_MS,
  notifier_deliveries: 30 * DAY_MS,
  /** Derived from spans; only the last 24 h are read, kept as long as the spans they count. */
  span_services: 3 * DAY_MS,
  /** The spans again, packed for trace reads (migration 11): dropped with the spans they copy. */
  trace_spans: 3 * DAY_MS,
  /** Incident statistics: a window may start 7 days back and is compared with the hour before. */
  op_minutes: 8 * DAY_MS,
  call_minutes: 8 * DAY_MS,
} as const;

export type TableWithLifetime = keyof typeof LIFETIME_MS;

/** Oldest Unix nanosecond a read of `table` may return at `nowMs`. */
export function oldestAllowedNs(table: TableWithLifetime, nowMs: number): bigint {
  return BigInt(Math.floor(nowMs) - LIFETIME_MS[table]) * 1_000_000n;
}

/** Oldest Unix millisecond a read of `table` may return at `nowMs`. */
export function oldestAllowedMs(table: TableWithLifetime, nowMs: number): number {
  return Math.floor(nowMs) - LIFETIME_MS[table];
}

/** Raw spans and logs live this long; the writer does not insert items stamped older, or 0. */
export const RAW_RETENTION_NS = BigInt(LIFETIME_MS.spans) * 1_000_000n;

/**
 * Whether a raw item stamped `tsNs` is still inside its lifetime at `nowNs`. The writer stores by
 * this rule, and the assembler and the logminer skip what the writer will not store.
 */
export function isStorable(tsNs: bigint, nowNs: bigint): boolean {
  return tsNs !== 0n && tsNs >= nowNs - RAW_RETENTION_NS;
}
