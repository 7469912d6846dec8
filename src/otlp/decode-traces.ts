import type { AttrPair, SpanEvent, SpanRow } from '../model/signals.js';
import { UNKNOWN_SERVICE } from '../model/signals.js';
import { readKeyValue } from './any-value.js';
import { OtlpDecodeError } from './errors.js';
import { hex8, traceIdHex, ZERO_SPAN_ID } from './hex.js';
import { fieldMask, ProtoReader } from './proto-reader.js';
import { readResource, readScope, type ScopeFields } from './read-envelope.js';
import { serviceNameOf } from './service-name.js';
import { spanKindOf, spanStatusOf } from './span-enums.js';
import type { WireSlices } from './wire-slices.js';
import {
  TAG_RESOURCE_SPANS,
  TAG_RESOURCE,
  TAG_SCOPE_SPANS,
  TAG_SCOPE,
  TAG_SPANS,
  TAG_TRACE_ID,
  TAG_SPAN_ID,
  TAG_PARENT_SPAN_ID,
  TAG_NAME,
  TAG_KIND,
  TAG_START,
  TAG_END,
  TAG_ATTRIBUTES,
  TAG_EVENTS,
  TAG_STATUS,
  TAG_STATUS_MESSAGE,
  TAG_STATUS_CODE,
  TAG_EVENT_TIME,
  TAG_EVENT_NAME,
  TAG_EVENT_ATTRIBUTES,
} from './trace-tags.js';

// Which fields each message reads (tags in trace-tags.ts).
// TracesData and ExportTraceServiceRequest: resource_spans = 1.
const TRACES_DATA_FIELDS = fieldMask(1);
// ResourceSpans: resource = 1, scope_spans = 2. ScopeSpans: scope = 1, spans = 2.
const ENVELOPE_FIELDS = fieldMask(1, 2);
// Span: trace_id = 1, span_id = 2, parent_span_id = 4, name = 5, kind = 6 (enum),
// start_time_unix_nano = 7 and end_time_unix_nano = 8 (fixed64), attributes = 9, events = 11, status = 15.
const SPAN_FIELDS = fieldMask(1, 2, 4, 5, 6, 7, 8, 9, 11, 15);
// Status: message = 2, code = 3 (enum).
const STATUS_FIELDS = fieldMask(2, 3);
// Span.Event: time_unix_nano = 1 (fixed64), name = 2, attributes = 3.
const EVENT_FIELDS = fieldMask(1, 2, 3);

/**
 * Decodes OTLP `TracesData` or `ExportTraceServiceRequest` protobuf bytes to span rows.
 * Rows of one ResourceSpans share one `resource` array: treat rows as read-only.
 * Throws OtlpDecodeError on malformed input or a span whose ids have the wrong length.
 * `slices`, made over the same `bytes`, learns where each span lies (ingest frames bus records from it).
 */
export function decodeTraces(bytes: Uint8Array, slices?: WireSlices): SpanRow[] {
  const r = new ProtoReader(bytes);
  const end = r.buf.length;
  const rows: SpanRow[] = [];
  while (r.pos < end) {
    const tag = r.varint32(end);
    if (tag === TAG_RESOURCE_SPANS) {
      readResourceSpans(r, r.lengthEnd(end), rows, slices);
    } else {
      r.skipUnknown(tag, end, TRACES_DATA_FIELDS);
    }
  }
  return rows;
}

function readResourceSpans(r: ProtoReader, end: number, rows: SpanRow[], slices: WireSlices | undefined): void {
  const resource: AttrPair[] = [];
  const resourceRange = slices?.openResource();
  let serviceName = UNKNOWN_SERVICE;
  const firstRow = rows.length;
  let resourceAfterSpans = false;
  while (r.pos < end) {
    const tag = r.varint32(end);
    if (tag === TAG_SCOPE_SPANS) {
      readScopeSpans(r, r.lengthEnd(end), rows, resource, serviceName, slices, resourceRange);
    } else if (tag === TAG_RESOURCE) {
      // Fields may come in any order; spans already read share `resource`, only their service needs a fix.
      const resourceEnd = r.lengthEnd(end);
      if (slices !== undefined) slices.setResource(resourceRange!, r.pos, resourceEnd);
      readResource(r, resourceEnd, resource);
      serviceName = serviceNameOf(resource);
      if (rows.length > firstRow) resourceAfterSpans = true;
    } else {
      r.skipUnknown(tag, end, ENVELOPE_FIELDS);
    }
  }
  if (resourceAfterSpans) {
    for (let i = firstRow; i < rows.length; i++) rows[i].serviceName = serviceName;
  }
}

function readScopeSpans(
  r: ProtoReader,
  end: number,
  rows: SpanRow[],
  resource: AttrPair[],
  serviceName: string,
  slices: WireSlices | undefined,
  resourceRange: ReturnType<WireSlices['openResource']> | undefined,
): void {
  const scope: ScopeFields = { name: '', version: '' };
  const envelope = slices === undefined ? -1 : slices.openScope(resourceRange!);
  const firstRow = rows.length;
  let scopeAfterSpans = false;
  while (r.pos < end) {
    const tag = r.varint32(end);
    if (tag === TAG_SPANS) {
      const spanEnd = r.lengthEnd(end);
      if (slices !== undefined) slices.addItem(envelope, r.pos, spanEnd);
      rows.push(readSpan(r, spanEnd, resource, serviceName, scope));
    } else if (tag === TAG_SCOPE) {
      const scopeEnd = r.lengthEnd(end);
      if (slices !== undefined) slices.setScope(envelope, r.pos, scopeEnd);
      readScope(r, scopeEnd, scope);
      if (rows.length > firstRow) scopeAfterSpans = true;
    } else {
      r.skipUnknown(tag, end, ENVELOPE_FIELDS);
    }
  }
  if (scopeAfterSpans) {
    for (let i = firstRow; i < rows.length; i++) {
      rows[i].scopeName = scope.name;
      rows[i].scopeVersion = scope.version;
    }
  }
}

function readSpan(r: ProtoReader, end: number, resource: AttrPair[], serviceName: string, scope: ScopeFields): SpanRow {
  const buf = r.buf;
  let traceId = '';
  let spanId = '';
  let parentSpanId = '';
  let name = '';
  let kind = 0;
  let startNs = 0n;
  let endNs = 0n;
  const attrs: AttrPair[] = [];
  const events: SpanEvent[] = [];
  let statusCode = 0;
  let statusMessage = '';
  while (r.pos < end) {
    const tag = r.varint32(end);
    switch (tag) {
      case TAG_TRACE_ID: {
        const idEnd = r.lengthEnd(end);
        if (idEnd - r.pos !== 16) throw new OtlpDecodeError('span trace id must be 16 bytes');
        traceId = traceIdHex(buf, r.pos);
        r.pos = idEnd;
        break;
      }
      case TAG_SPAN_ID: {
        const idEnd = r.lengthEnd(end);
        if (idEnd - r.pos !== 8) throw new OtlpDecodeError('span id must be 8 bytes');
        spanId = hex8(buf, r.pos);
        r.pos = idEnd;
        break;
      }
      case TAG_PARENT_SPAN_ID: {
        const idEnd = r.lengthEnd(end);
        const idLength = idEnd - r.pos;
        if (idLength === 8) {
          parentSpanId = hex8(buf, r.pos);
          if (parentSpanId === ZERO_SPAN_ID) parentSpanId = '';
        } else if (idLength === 0) {
          parentSpanId = '';
        } else {
          throw new OtlpDecodeError('parent span id must be 0 or 8 bytes');
        }
        r.pos = idEnd;
        break;
      }
      case TAG_NAME:
        name = r.string(end);
        break;
      case TAG_KIND:
        kind = r.int32(end);
        break;
      case TAG_START:
        startNs = r.fixed64(end);
        break;
      case TAG_END:
        endNs = r.fixed64(end);
        break;
      case TAG_ATTRIBUTES:
        attrs.push(readKeyValue(r, r.lengthEnd(end), 0));
        break;
      case TAG_EVENTS:
        events.push(readEvent(r, r.lengthEnd(end)));
        break;
      case TAG_STATUS: {
        // Inline so both status fields land in locals; a repeated status merges, as protobuf specifies.
        const statusEnd = r.lengthEnd(end);
        while (r.pos < statusEnd) {
          const statusTag = r.varint32(statusEnd);
          if (statusTag === TAG_STATUS_CODE) statusCode = r.int32(statusEnd);
          else if (statusTag === TAG_STATUS_MESSAGE) statusMessage = r.string(statusEnd);
          else r.skipUnknown(statusTag, statusEnd, STATUS_FIELDS);
        }
        break;
      }
      default:
        r.skipUnknown(tag, end, SPAN_FIELDS);
    }
  }
  if (traceId === '') throw new OtlpDecodeError('span trace id must be 16 bytes');
  if (spanId === '') throw new OtlpDecodeError('span id must be 8 bytes');
  return {
    traceId,
    spanId,
    parentSpanId,
    serviceName,
    name,
    kind: spanKindOf(kind),
    startNs,
    endNs,
    status: spanStatusOf(statusCode),
    statusMessage,
    attrs,
    resource,
    events,
    scopeName: scope.name,
    scopeVersion: scope.version,
  };
}

function readEvent(r: ProtoReader, end: number): SpanEvent {
  let tsNs = 0n;
  let name = '';
  const attrs: AttrPair[] = [];
  while (r.pos < end) {
    const tag = r.varint32(end);
    if (tag === TAG_EVENT_ATTRIBUTES) attrs.push(readKeyValue(r, r.lengthEnd(end), 0));
    else if (tag === TAG_EVENT_TIME) tsNs = r.fixed64(end);
    else if (tag === TAG_EVENT_NAME) name = r.string(end);
    else r.skipUnknown(tag, end, EVENT_FIELDS);
  }
  return { tsNs, name, attrs };
}

