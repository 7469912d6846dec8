import type { AttrPair } from '../model/signals.js';
import { UNKNOWN_SERVICE } from '../model/signals.js';
import { readKeyValue } from './any-value.js';
import { TAG_ITEMS, TAG_RESOURCE, TAG_RESOURCE_ITEMS, TAG_SCOPE, TAG_SCOPE_ITEMS } from './envelope-tags.js';
import { OtlpDecodeError } from './errors.js';
import { hex8, traceIdHex, ZERO_SPAN_ID, ZERO_TRACE_ID } from './hex.js';
import { fieldMask, ProtoReader } from './proto-reader.js';
import { serviceNameOf } from './service-name.js';
import type { WireSlices } from './wire-slices.js';

// resource.proto Resource: attributes = 1.
const TAG_RESOURCE_ATTRIBUTES = 0x0a;
const RESOURCE_FIELDS = fieldMask(1);
// common.proto InstrumentationScope: name = 1, version = 2 (attributes = 3 are not kept).
const TAG_SCOPE_NAME = 0x0a;
const TAG_SCOPE_VERSION = 0x12;
const SCOPE_FIELDS = fieldMask(1, 2);
// TracesData / LogsData (and their Export*ServiceRequest): resource_* = 1.
const DATA_FIELDS = fieldMask(1);
// Resource*: resource = 1, scope_* = 2. Scope*: scope = 1, items = 2.
const ENVELOPE_FIELDS = fieldMask(1, 2);

/** The kept fields of an InstrumentationScope. */
export interface ScopeFields {
  name: string;
  version: string;
}

/** Appends the attributes of the Resource message in [r.pos, end) to `into` (a repeated resource merges). */
export function readResource(r: ProtoReader, end: number, into: AttrPair[]): void {
  while (r.pos < end) {
    const tag = r.varint32(end);
    if (tag === TAG_RESOURCE_ATTRIBUTES) into.push(readKeyValue(r, r.lengthEnd(end), 0));
    else r.skipUnknown(tag, end, RESOURCE_FIELDS);
  }
}

/** Reads the InstrumentationScope message in [r.pos, end) into `into`. */
export function readScope(r: ProtoReader, end: number, into: ScopeFields): void {
  while (r.pos < end) {
    const tag = r.varint32(end);
    if (tag === TAG_SCOPE_NAME) into.name = r.string(end);
    else if (tag === TAG_SCOPE_VERSION) into.version = r.string(end);
    else r.skipUnknown(tag, end, SCOPE_FIELDS);
  }
}

/** What every decoded item carries of its envelope. */
export interface EnvelopedRow {
  serviceName: string;
  scopeName: string;
  scopeVersion: string;
}

/** How one signal reads its items (Span, LogRecord) inside the envelope both signals share. */
export interface ItemReader<Row extends EnvelopedRow> {
  /** Reads the item message in [r.pos, end); `serviceName` is the resource's as read so far. Called without `this`. */
  readonly readItem: (r: ProtoReader, end: number, resource: AttrPair[], serviceName: string, scope: ScopeFields) => Row;
  /**
   * Called once a Resource* message is read: rows [firstRow, rows.length) are its items, and
   * `resourceAfterItems` says the resource field followed some of them on the wire.
   */
  finishResource(rows: Row[], firstRow: number, serviceName: string, resourceAfterItems: boolean): void;
}

/**
 * Decodes a TracesData / LogsData (or Export*ServiceRequest) message to rows, one per item; the
 * rows of one Resource* share one `resource` array. `slices`, made over the same `bytes`, learns
 * where each item lies (ingest frames bus records from it).
 */
export function decodeEnvelopes<Row extends EnvelopedRow>(bytes: Uint8Array, reader: ItemReader<Row>, slices: WireSlices | undefined): Row[] {
  const r = new ProtoReader(bytes);
  const end = r.buf.length;
  const rows: Row[] = [];
  while (r.pos < end) {
    const tag = r.varint32(end);
    if (tag === TAG_RESOURCE_ITEMS) readResourceItems(r, r.lengthEnd(end), rows, reader, slices);
    else r.skipUnknown(tag, end, DATA_FIELDS);
  }
  return rows;
}

function readResourceItems<Row extends EnvelopedRow>(r: ProtoReader, end: number, rows: Row[], reader: ItemReader<Row>, slices: WireSlices | undefined): void {
  const resource: AttrPair[] = [];
  const resourceRange = slices?.openResource();
  let serviceName = UNKNOWN_SERVICE;
  const firstRow = rows.length;
  let resourceAfterItems = false;
  while (r.pos < end) {
    const tag = r.varint32(end);
    if (tag === TAG_SCOPE_ITEMS) {
      readScopeItems(r, r.lengthEnd(end), rows, resource, serviceName, reader, slices, resourceRange);
    } else if (tag === TAG_RESOURCE) {
      // Fields may come in any order; items already read share `resource`, only their service may need a fix.
      const resourceEnd = r.lengthEnd(end);
      if (slices !== undefined) slices.setResource(resourceRange!, r.pos, resourceEnd);
      readResource(r, resourceEnd, resource);
      serviceName = serviceNameOf(resource);
      if (rows.length > firstRow) resourceAfterItems = true;
    } else {
      r.skipUnknown(tag, end, ENVELOPE_FIELDS);
    }
  }
  reader.finishResource(rows, firstRow, serviceName, resourceAfterItems);
}

function readScopeItems<Row extends EnvelopedRow>(
  r: ProtoReader,
  end: number,
  rows: Row[],
  resource: AttrPair[],
  serviceName: string,
  reader: ItemReader<Row>,
  slices: WireSlices | undefined,
  resourceRange: ReturnType<WireSlices['openResource']> | undefined,
): void {
  const scope: ScopeFields = { name: '', version: '' };
  const envelope = slices === undefined ? -1 : slices.openScope(resourceRange!);
  const firstRow = rows.length;
  let scopeAfterItems = false;
  const readItem = reader.readItem; // once per scope, not a property load per item
  while (r.pos < end) {
    const tag = r.varint32(end);
    if (tag === TAG_ITEMS) {
      const itemEnd = r.lengthEnd(end);
      if (slices !== undefined) slices.addItem(envelope, r.pos, itemEnd);
      rows.push(readItem(r, itemEnd, resource, serviceName, scope));
    } else if (tag === TAG_SCOPE) {
      const scopeEnd = r.lengthEnd(end);
      if (slices !== undefined) slices.setScope(envelope, r.pos, scopeEnd);
      readScope(r, scopeEnd, scope);
      if (rows.length > firstRow) scopeAfterItems = true;
    } else {
      r.skipUnknown(tag, end, ENVELOPE_FIELDS);
    }
  }
  if (scopeAfterItems) {
    for (let i = firstRow; i < rows.length; i++) {
      rows[i].scopeName = scope.name;
      rows[i].scopeVersion = scope.version;
    }
  }
}

/** An optional 8-byte span id field (a span's parent, a log's span): empty or all-zero bytes read as ''. */
export function readOptionalSpanId(r: ProtoReader, end: number, error: string): string {
  const idEnd = r.lengthEnd(end);
  const idLength = idEnd - r.pos;
  let id = '';
  if (idLength === 8) {
    id = hex8(r.buf, r.pos);
    if (id === ZERO_SPAN_ID) id = '';
  } else if (idLength !== 0) {
    throw new OtlpDecodeError(error);
  }
  r.pos = idEnd;
  return id;
}

/** A trace id that must be 16 bytes (spans and links), as hex. */
export function readTraceId(r: ProtoReader, end: number, error: string): string {
  const idEnd = r.lengthEnd(end);
  if (idEnd - r.pos !== 16) throw new OtlpDecodeError(error);
  const id = traceIdHex(r.buf, r.pos);
  r.pos = idEnd;
  return id;
}

/** A span id that must be 8 bytes (spans and links), as hex. */
export function readSpanId(r: ProtoReader, end: number, error: string): string {
  const idEnd = r.lengthEnd(end);
  if (idEnd - r.pos !== 8) throw new OtlpDecodeError(error);
  const id = hex8(r.buf, r.pos);
  r.pos = idEnd;
  return id;
}

/** A log's trace id: 0 or 16 bytes; empty or all zeros reads as no trace. */
export function readOptionalTraceId(r: ProtoReader, end: number, error: string): string {
  const idEnd = r.lengthEnd(end);
  const idLength = idEnd - r.pos;
  let id = '';
  if (idLength === 16) {
    id = traceIdHex(r.buf, r.pos);
    if (id === ZERO_TRACE_ID) id = '';
  } else if (idLength !== 0) {
    throw new OtlpDecodeError(error);
  }
  r.pos = idEnd;
  return id;
}
