/**
 * What a bus record gives the assembler: an encoded chunk to buffer as it is, or rows decoded now.
 * Rows pass one filter, the same on arrival and when a buffered chunk is decoded at close: items
 * the writer will not store (stamped 0, older than 3 days, past the store's range, or with an
 * invalid id) get no story either, since it would point at a trace nobody can open.
 */
import { ITEMS_HEADER, KEY_HEADER, SIGNAL_HEADER, type BusRecord } from '../model/bus.js';
import type { LogRow, SpanRow } from '../model/signals.js';
import type { DropTally } from '../otlp/item-validity.js';
import type { RecordDecoder, RecordPlace } from '../otlp/record-decoder.js';
import { logDropReason, spanDropReason, type DropReason } from '../store/drop-reason.js';
import type { AssemblerMetrics } from './metrics.js';
import type { EncodedChunk } from './trace-buffer.js';

export interface TraceRows {
  spans: SpanRow[];
  logs: LogRow[];
}

export type Signal = EncodedChunk['signal'];

/** A record's signal by its header; a record without one holds spans, as ingest always says when it holds logs. */
export function signalOf(record: BusRecord): Signal {
  return record.headers?.[SIGNAL_HEADER] === 'logs' ? 'logs' : 'traces';
}

/**
 * Records from our own ingest say in their headers that they hold one trace's items and how many:
 * those are buffered still encoded (null: decode it now; 'skip': nothing for the assembler). Others
 * (another producer) are decoded at once.
 */
export function encodedChunkOf(record: BusRecord): EncodedChunk | 'skip' | null {
  const signal = signalOf(record);
  const keyKind = record.headers?.[KEY_HEADER];
  if (keyKind === 'service') return signal === 'logs' ? 'skip' : null; // logs without trace context
  const items = Number(record.headers?.[ITEMS_HEADER]);
  if (keyKind !== 'trace' || !Number.isInteger(items) || items < 0) return null;
  return { signal, items, value: record.value };
}

/**
 * The rows of one record value the writer will store, in order; the others are tallied in
 * `dropped` by reason. Logs without a trace are no part of any trace: skipped, not tallied. An
 * undecodable value gives no rows (`decoder` counts it).
 */
export function readStorableRows(
  decoder: RecordDecoder,
  signal: Signal,
  value: Uint8Array,
  place: RecordPlace | undefined,
  nowNs: bigint,
  dropped: DropTally<DropReason>,
): TraceRows {
  if (signal === 'logs') return { spans: [], logs: keepStorableLogs(decoder.logs(value, place), nowNs, dropped) };
  return { spans: keepStorableSpans(decoder.spans(value, place), nowNs, dropped), logs: [] };
}

/** Compacts the freshly decoded `spans` in place (no copy on the hot path). */
function keepStorableSpans(spans: SpanRow[], nowNs: bigint, dropped: DropTally<DropReason>): SpanRow[] {
  let kept = 0;
  for (let i = 0; i < spans.length; i++) {
    const span = spans[i]!;
    const reason = spanDropReason(span, nowNs);
    if (reason === undefined) spans[kept++] = span;
    else dropped.add(reason);
  }
  spans.length = kept;
  return spans;
}

function keepStorableLogs(logs: LogRow[], nowNs: bigint, dropped: DropTally<DropReason>): LogRow[] {
  let kept = 0;
  for (let i = 0; i < logs.length; i++) {
    const log = logs[i]!;
    if (log.traceId === '') continue;
    const reason = logDropReason(log, nowNs);
    if (reason === undefined) logs[kept++] = log;
    else dropped.add(reason);
  }
  logs.length = kept;
  return logs;
}

/** Rows by trace id, in first-seen order: one record normally holds one trace, but an export may be keyed otherwise. */
export function groupByTrace(rows: TraceRows): Map<string, TraceRows> {
  const groups = new Map<string, TraceRows>();
  for (const span of rows.spans) groupOf(groups, span.traceId).spans.push(span);
  for (const log of rows.logs) groupOf(groups, log.traceId).logs.push(log);
  return groups;
}

function groupOf(groups: Map<string, TraceRows>, traceId: string): TraceRows {
  let group = groups.get(traceId);
  if (group === undefined) groups.set(traceId, (group = { spans: [], logs: [] }));
  return group;
}

export function countDropped(metrics: AssemblerMetrics, dropped: DropTally<DropReason>): void {
  for (const [reason, items] of dropped.counts) metrics.droppedItems.inc({ reason }, items);
}
