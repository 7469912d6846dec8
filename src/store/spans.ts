/** Raw span rows: bulk insert and the trace-by-id read. */

import type { InsertFormat, QueryOptions, Store } from '../model/store.js';
import type { SpanKind, SpanRow, SpanStatus } from '../model/signals.js';
import { attrsFromJson, attrsToJson, eventsFromJson, eventsToJson, linksFromJson, linksToJson } from './attrs-json.js';
import { encodeLines } from './compact-json.js';
import { oldestAllowedNs } from './lifetimes.js';
import { RowBinaryWriter } from './row-binary.js';

const SPAN_COLUMNS = [
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

/** The columns a trace read takes unless links are asked for. */
const READ_COLUMNS = SPAN_COLUMNS.filter((column) => column !== 'links');

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
  // The decoder gives the spans of one resource the same array: its JSON is made once for them.
  let resource: SpanRow['resource'] | undefined;
  let resourceJson = '';
  for (const r of rows) {
    if (r.resource !== resource) {
      resource = r.resource;
      resourceJson = attrsToJson(resource);
    }
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
    out.string(attrsToJson(r.attrs));
    out.string(resourceJson);
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

interface StoredSpan {
  trace_id: string;
  span_id: string;
  parent_span_id: string;
  service_name: string;
  name: string;
  kind: SpanKind;
  status: SpanStatus;
  status_message: string;
  start_ns: string;
  end_ns: string;
  attrs: string;
  resource: string;
  events: string;
  scope_name: string;
  scope_version: string;
  /** Read only when asked for (withLinks). */
  links?: string;
}

function toSpanRow(r: StoredSpan): SpanRow {
  const links = r.links === undefined ? undefined : linksFromJson(r.links);
  return {
    traceId: r.trace_id,
    spanId: r.span_id,
    parentSpanId: r.parent_span_id,
    serviceName: r.service_name,
    name: r.name,
    kind: r.kind,
    startNs: BigInt(r.start_ns),
    endNs: BigInt(r.end_ns),
    status: r.status,
    statusMessage: r.status_message,
    attrs: attrsFromJson(r.attrs),
    resource: attrsFromJson(r.resource),
    events: eventsFromJson(r.events),
    scopeName: r.scope_name,
    scopeVersion: r.scope_version,
    ...(links === undefined ? {} : { links }),
  };
}

export interface TraceReadOptions {
  /** Clock for the lifetime filter; defaults to Date.now(). */
  nowMs?: number;
  timeoutSecs?: QueryOptions['timeoutSecs'];
  signal?: AbortSignal;
  /** At most this many spans, the earliest-starting ones (absent: all). */
  maxSpans?: number;
  /**
   * Read the spans' links too (the Jaeger APIs serve them; svc's own routes do not, and each column
   * read costs a trace read ~0.3 ms, measured on chDB).
   */
  withLinks?: boolean;
}

/** The spans of one trace within the spans lifetime, each once, ordered by start time. */
export async function getTraceSpans(store: Store, traceId: string, options: TraceReadOptions = {}): Promise<SpanRow[]> {
  return getTracesSpans(store, [traceId], options);
}

/** Start time, then span id: the order every trace read answers in. */
function byStart(a: StoredSpan, b: StoredSpan): number {
  if (a.start_ns !== b.start_ns) return compareDecimal(a.start_ns, b.start_ns);
  return a.span_id < b.span_id ? -1 : a.span_id > b.span_id ? 1 : 0;
}

/** Two different Int64 decimals by value: non-negative ones by length, then text (no BigInt per comparison). */
function compareDecimal(a: string, b: string): number {
  if (a.startsWith('-') || b.startsWith('-')) return BigInt(a) < BigInt(b) ? -1 : 1;
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : 1;
}

/** Each span once (a replay stores a span again until merges collapse it), ordered by start time. */
function dedupeByStart(rows: StoredSpan[]): StoredSpan[] {
  rows.sort(byStart);
  const seen = new Set<string>();
  return rows.filter((row) => {
    const key = row.trace_id + row.span_id;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/**
 * The spans of several traces within the spans lifetime in one read, each span once, ordered by
 * start time (a search page reads its traces with one statement instead of one per trace).
 */
export async function getTracesSpans(store: Store, traceIds: readonly string[], options: TraceReadOptions = {}): Promise<SpanRow[]> {
  if (traceIds.length === 0) return [];
  // One id compares by equality, as the trace page always has (the primary key's first column).
  const single = traceIds.length === 1;
  const read = (sorted: boolean, maxRows: number | undefined) =>
    store.query<StoredSpan>(
      `SELECT ${(options.withLinks === true ? SPAN_COLUMNS : READ_COLUMNS).join(', ')}
       FROM spans
       WHERE ${single ? 'trace_id = {trace_id:String}' : 'trace_id IN {trace_ids:Array(String)}'} AND start_ns >= {oldest_ns:Int64}
       ${sorted ? 'ORDER BY start_ns, span_id LIMIT 1 BY trace_id, span_id' : ''}
       ${maxRows === undefined ? '' : 'LIMIT {max_rows:UInt32}'}`,
      {
        ...(single ? { trace_id: traceIds[0]! } : { trace_ids: traceIds }),
        oldest_ns: oldestAllowedNs('spans', options.nowMs ?? Date.now()),
        ...(maxRows === undefined ? {} : { max_rows: maxRows }),
      },
      { timeoutSecs: options.timeoutSecs, signal: options.signal },
    );
  // Sorting and deduplicating a trace's rows in the engine costs more than the read itself
  // (measured: ~1.4 of ~6.3 ms for a 20-span trace), so the rows are read unsorted and ordered
  // here. Only when the unsorted read may have left spans out (more rows than the bound) does the
  // engine pick the earliest-starting ones.
  const { maxSpans } = options;
  const rows = await read(false, maxSpans === undefined ? undefined : maxSpans + 1);
  const spans = maxSpans !== undefined && rows.length > maxSpans ? await read(true, maxSpans) : dedupeByStart(rows);
  return spans.map(toSpanRow);
}
