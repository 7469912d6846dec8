/** Raw span rows: bulk insert and the trace-by-id read. */

import type { InsertFormat, QueryOptions, QueryParams, Store } from '../model/store.js';
import type { SpanKind, SpanRow, SpanStatus } from '../model/signals.js';
import { attrsToJson, eventsToJson, linksToJson } from './attrs-json.js';
import { encodeLines } from './compact-json.js';
import { oldestAllowedNs } from './lifetimes.js';
import { packedStart, packedToSpanRow, parsePacked, type PackedSpan } from './packed-spans.js';
import { RowBinaryWriter } from './row-binary.js';

/** The spans table's columns in the order the writer's payload carries them. */
export const SPAN_COLUMNS = [
  'trace_id',
  'span_id',
  'parent_span_id',
  'service_name',
  'name',
  'kind',
  'status',
  'status_message',
  'start_ns',
  'end_ns',
  'attrs',
  'resource',
  'events',
  'scope_name',
  'scope_version',
  'links',
] as const;

/** The Enum8 numbers of the spans table's kind and status columns (migration 1). */
const KIND_NUMBER: Record<SpanKind, number> = { unspecified: 0, internal: 1, server: 2, client: 3, producer: 4, consumer: 5 };
const STATUS_NUMBER: Record<SpanStatus, number> = { unset: 0, ok: 1, error: 2 };

const s = JSON.stringify;

/** One JSONCompactEachRow line per span; ns as bare integers so they stay exact. */
function spanLine(r: SpanRow): string {
  return (
    `[${s(r.traceId)},${s(r.spanId)},${s(r.parentSpanId)},${s(r.serviceName)},${s(r.name)},${s(r.kind)},` +
    `${s(r.status)},${s(r.statusMessage)},${r.startNs},${r.endNs},${s(attrsToJson(r.attrs))},` +
    `${s(attrsToJson(r.resource))},${s(eventsToJson(r.events))},${s(r.scopeName)},${s(r.scopeVersion)},${s(linksToJson(r.links))}]\n`
  );
}

/** Spans as an insert payload in SPAN_COLUMNS order (the writer encodes as rows arrive, so the rows die young). */
export function encodeSpanRows(rows: readonly SpanRow[], format: InsertFormat): Buffer {
  return format === 'RowBinary' ? spanRowBinary(rows) : encodeLines(rows, spanLine);
}

function spanRowBinary(rows: readonly SpanRow[]): Buffer {
  const out = new RowBinaryWriter();
  for (const r of rows) {
    out.string(r.traceId);
    out.string(r.spanId);
    out.string(r.parentSpanId);
    out.string(r.serviceName);
    out.string(r.name);
    out.uint8(KIND_NUMBER[r.kind]);
    out.uint8(STATUS_NUMBER[r.status]);
    out.string(r.statusMessage);
    out.int64(r.startNs);
    out.int64(r.endNs);
    out.json(r.attrs);
    out.jsonOfShared(r.resource);
    out.string(eventsToJson(r.events));
    out.string(r.scopeName);
    out.string(r.scopeVersion);
    out.string(linksToJson(r.links));
  }
  return out.finish();
}

/** Stores a payload of encodeSpanRows() in `format` (or several concatenated) in one insert. */
export async function insertSpanRows(store: Store, payload: Buffer, format: InsertFormat): Promise<void> {
  await store.insertRaw('spans', SPAN_COLUMNS, payload, format);
}

export interface TraceReadOptions {
  /** Clock for the lifetime filter; defaults to Date.now(). */
  nowMs?: number;
  timeoutSecs?: QueryOptions['timeoutSecs'];
  signal?: AbortSignal;
  /** At most this many spans, the earliest-starting ones (absent: all). */
  maxSpans?: number;
  /** Answer the spans' links too (the Jaeger APIs serve them; svc's own routes do not). */
  withLinks?: boolean;
}

/** The spans of one trace within the spans lifetime, each once, ordered by start time. */
export async function getTraceSpans(store: Store, traceId: string, options: TraceReadOptions = {}): Promise<SpanRow[]> {
  return getTracesSpans(store, [traceId], options);
}

interface PackedRow {
  /** Absent when one trace is read (it is the one asked for). */
  trace_id?: string;
  packed: string;
}

interface ParsedRow {
  traceId: string;
  span: PackedSpan;
}

/** Start time, then span id: the order every trace read answers in. */
function byStart(a: ParsedRow, b: ParsedRow): number {
  const aStart = packedStart(a.span);
  const bStart = packedStart(b.span);
  if (aStart !== bStart) return compareDecimal(aStart, bStart);
  return a.span[0] < b.span[0] ? -1 : a.span[0] > b.span[0] ? 1 : 0;
}

/** Two Int64 decimals by value: non-negative ones by length, then text (no BigInt per comparison). */
function compareDecimal(a: string, b: string): number {
  if (a === b) return 0;
  if (a.startsWith('-') || b.startsWith('-')) return BigInt(a) < BigInt(b) ? -1 : 1;
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : 1;
}

/** Each span once (a replay stores a span again until merges collapse it), ordered by start time. */
function dedupeByStart(rows: ParsedRow[]): ParsedRow[] {
  rows.sort(byStart);
  const seen = new Set<string>();
  return rows.filter((row) => {
    const key = row.traceId + row.span[0];
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The spans of several traces within the spans lifetime in one read, each span once, ordered by
 * start time (a search page reads its traces with one statement instead of one per trace). Reads
 * trace_spans, the spans packed one String each in small granules (migration 11).
 */
export async function getTracesSpans(store: Store, traceIds: readonly string[], options: TraceReadOptions = {}): Promise<SpanRow[]> {
  if (traceIds.length === 0) return [];
  // One id compares by equality, as the trace page always has (the primary key's first column),
  // and needs no trace id back.
  const single = traceIds.length === 1;
  const oldestNs = oldestAllowedNs('spans', options.nowMs ?? Date.now());
  const query = (sql: string, params: QueryParams) =>
    store.query<PackedRow>(sql, params, { timeoutSecs: options.timeoutSecs, signal: options.signal, singleThread: single, quickPlan: single });
  const ids: QueryParams = single ? { trace_id: traceIds[0]! } : { trace_ids: traceIds };
  const idFilter = single ? 'trace_id = {trace_id:String}' : 'trace_id IN {trace_ids:Array(String)}';
  const columns = single ? 'packed' : 'trace_id, packed';
  const parse = (rows: PackedRow[]): ParsedRow[] => rows.map((row) => ({ traceId: row.trace_id ?? traceIds[0]!, span: parsePacked(row.packed) }));
  // The lifetime is checked here on the parsed start: a start_ns condition in the read costs it
  // another column (~0.7 of ~2.7 ms for a 20-span trace, measured on chDB). Sorting and
  // deduplicating in the engine cost more than the read, so rows are read unsorted and ordered
  // here; only when the unsorted read may have left spans out (more rows than the bound) does the
  // engine pick the earliest-starting ones within the lifetime.
  const oldest = oldestNs.toString();
  const { maxSpans } = options;
  const rows = await query(
    `SELECT ${columns} FROM trace_spans WHERE ${idFilter} ${maxSpans === undefined ? '' : 'LIMIT {max_rows:UInt32}'}`,
    maxSpans === undefined ? ids : { ...ids, max_rows: maxSpans + 1 },
  );
  let spans: ParsedRow[];
  if (maxSpans !== undefined && rows.length > maxSpans) {
    const earliest = await query(
      `SELECT ${columns} FROM trace_spans WHERE ${idFilter} AND start_ns >= {oldest_ns:Int64}
       ORDER BY start_ns, span_id LIMIT 1 BY trace_id, span_id LIMIT {max_rows:UInt32}`,
      { ...ids, oldest_ns: oldestNs, max_rows: maxSpans },
    );
    spans = parse(earliest);
  } else {
    spans = dedupeByStart(parse(rows).filter((row) => compareDecimal(packedStart(row.span), oldest) >= 0));
  }
  const withLinks = options.withLinks === true;
  return spans.map((row) => packedToSpanRow(row.traceId, row.span, withLinks));
}
