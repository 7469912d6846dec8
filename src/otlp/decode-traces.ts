import type { AttrPair, SpanEvent, SpanLink, SpanRow } from '../model/signals.js';
import { readKeyValue } from './any-value.js';
import { skipKeyValue } from './skip-values.js';
import { OtlpDecodeError } from './errors.js';
import { fieldMask, type ProtoReader } from './proto-reader.js';
import { decodeEnvelopes, readOptionalSpanId, readSpanId, readTraceId, type ItemReader, type ScopeFields } from './read-envelope.js';
import { spanKindOf, spanStatusOf } from './span-enums.js';
import type { WireSlices } from './wire-slices.js';
import {
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
  TAG_LINKS,
  TAG_LINK_TRACE_ID,
  TAG_LINK_SPAN_ID,
  TAG_LINK_TRACE_STATE,
  TAG_LINK_ATTRIBUTES,
  TAG_LINK_DROPPED_ATTRIBUTES,
} from './trace-tags.js';

// Which fields each message reads (tags in trace-tags.ts; the envelope is read-envelope.ts's).
// Span: trace_id = 1, span_id = 2, parent_span_id = 4, name = 5, kind = 6 (enum),
// start_time_unix_nano = 7 and end_time_unix_nano = 8 (fixed64), attributes = 9, events = 11, links = 13, status = 15.
const SPAN_FIELDS = fieldMask(1, 2, 4, 5, 6, 7, 8, 9, 11, 13, 15);
// Status: message = 2, code = 3 (enum).
const STATUS_FIELDS = fieldMask(2, 3);
// Span.Event: time_unix_nano = 1 (fixed64), name = 2, attributes = 3.
const EVENT_FIELDS = fieldMask(1, 2, 3);
// Span.Link: trace_id = 1, span_id = 2, trace_state = 3, attributes = 4, dropped_attributes_count = 5.
const LINK_FIELDS = fieldMask(1, 2, 3, 4, 5);

/**
 * Decodes OTLP `TracesData` or `ExportTraceServiceRequest` protobuf bytes to span rows.
 * Rows of one ResourceSpans share one `resource` array: treat rows as read-only.
 * Throws OtlpDecodeError on malformed input or a span whose ids have the wrong length.
 *
 * `slices`, made over the same `bytes`, learns where each span lies: ingest frames bus records from
 * it, and its consumers decode those records again. With usable slices the rows are skimmed: every
 * check of the full decode is made, but a row carries only what ingest reads (trace and span ids,
 * times, service, scope); name, kind, status, parent, attributes, events and links are left empty.
 * Building them was most of ingest's decode and much of its garbage. Should the slices prove
 * unusable (a repeated resource or scope field), the spans are decoded in full, for ingest to encode.
 */
export function decodeTraces(bytes: Uint8Array, slices?: WireSlices): SpanRow[] {
  if (slices === undefined) return decodeEnvelopes(bytes, SPANS, undefined);
  const skimmed = decodeEnvelopes(bytes, SKIMMED_SPANS, slices);
  return slices.usable ? skimmed : decodeEnvelopes(bytes, SPANS, undefined);
}

const SPANS: ItemReader<SpanRow> = {
  readItem: readSpan,
  finishResource(rows, firstRow, serviceName, resourceAfterItems) {
    // A span takes the service read before it; only spans read before the resource need it set.
    if (!resourceAfterItems) return;
    for (let i = firstRow; i < rows.length; i++) rows[i].serviceName = serviceName;
  },
};

const SKIMMED_SPANS: ItemReader<SpanRow> = { readItem: skimSpan, finishResource: SPANS.finishResource };

function readSpan(r: ProtoReader, end: number, resource: AttrPair[], serviceName: string, scope: ScopeFields): SpanRow {
  let traceId = '';
  let spanId = '';
  let parentSpanId = '';
  let name = '';
  let kind = 0;
  let startNs = 0n;
  let endNs = 0n;
  const attrs: AttrPair[] = [];
  const events: SpanEvent[] = [];
  let links: SpanLink[] | undefined;
  let statusCode = 0;
  let statusMessage = '';
  while (r.pos < end) {
    const tag = r.varint32(end);
    switch (tag) {
      case TAG_TRACE_ID:
        traceId = readTraceId(r, end, 'span trace id must be 16 bytes');
        break;
      case TAG_SPAN_ID:
        spanId = readSpanId(r, end, 'span id must be 8 bytes');
        break;
      case TAG_PARENT_SPAN_ID:
        parentSpanId = readOptionalSpanId(r, end, 'parent span id must be 0 or 8 bytes');
        break;
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
      case TAG_LINKS:
        (links ??= []).push(readLink(r, r.lengthEnd(end)));
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
  const row: SpanRow = {
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
  // Set after the literal, not spread into it: a spread made an object and a copy per span.
  if (links !== undefined) row.links = links;
  return row;
}

function readLink(r: ProtoReader, end: number): SpanLink {
  let traceId = '';
  let spanId = '';
  let traceState = '';
  const attrs: AttrPair[] = [];
  let droppedAttrsCount = 0;
  while (r.pos < end) {
    const tag = r.varint32(end);
    if (tag === TAG_LINK_TRACE_ID) traceId = readTraceId(r, end, 'link trace id must be 16 bytes');
    else if (tag === TAG_LINK_SPAN_ID) spanId = readSpanId(r, end, 'link span id must be 8 bytes');
    else if (tag === TAG_LINK_TRACE_STATE) traceState = r.string(end);
    else if (tag === TAG_LINK_ATTRIBUTES) attrs.push(readKeyValue(r, r.lengthEnd(end), 0));
    else if (tag === TAG_LINK_DROPPED_ATTRIBUTES) droppedAttrsCount = r.varint32(end);
    else r.skipUnknown(tag, end, LINK_FIELDS);
  }
  if (traceId === '') throw new OtlpDecodeError('link trace id must be 16 bytes');
  if (spanId === '') throw new OtlpDecodeError('link span id must be 8 bytes');
  return { traceId, spanId, traceState, attrs, droppedAttrsCount };
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

const NO_ATTRS: AttrPair[] = [];
const NO_EVENTS: SpanEvent[] = [];

/** readSpan's checks, keeping only the ids, times, service and scope (see decodeTraces). */
function skimSpan(r: ProtoReader, end: number, resource: AttrPair[], serviceName: string, scope: ScopeFields): SpanRow {
  let traceId = '';
  let spanId = '';
  let startNs = 0n;
  let endNs = 0n;
  while (r.pos < end) {
    const tag = r.varint32(end);
    switch (tag) {
      case TAG_TRACE_ID:
        traceId = readTraceId(r, end, 'span trace id must be 16 bytes');
        break;
      case TAG_SPAN_ID:
        spanId = readSpanId(r, end, 'span id must be 8 bytes');
        break;
      case TAG_PARENT_SPAN_ID:
        readOptionalSpanId(r, end, 'parent span id must be 0 or 8 bytes');
        break;
      case TAG_NAME:
        r.pos = r.lengthEnd(end);
        break;
      case TAG_KIND:
        r.int32(end);
        break;
      case TAG_START:
        startNs = r.fixed64(end);
        break;
      case TAG_END:
        endNs = r.fixed64(end);
        break;
      case TAG_ATTRIBUTES:
        skipKeyValue(r, r.lengthEnd(end), 0);
        break;
      case TAG_EVENTS:
        skipEvent(r, r.lengthEnd(end));
        break;
      case TAG_LINKS:
        skipLink(r, r.lengthEnd(end));
        break;
      case TAG_STATUS: {
        const statusEnd = r.lengthEnd(end);
        while (r.pos < statusEnd) {
          const statusTag = r.varint32(statusEnd);
          if (statusTag === TAG_STATUS_CODE) r.int32(statusEnd);
          else if (statusTag === TAG_STATUS_MESSAGE) r.pos = r.lengthEnd(statusEnd);
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
    parentSpanId: '',
    serviceName,
    name: '',
    kind: 'unspecified',
    startNs,
    endNs,
    status: 'unset',
    statusMessage: '',
    attrs: NO_ATTRS,
    resource,
    events: NO_EVENTS,
    scopeName: scope.name,
    scopeVersion: scope.version,
  };
}

function skipLink(r: ProtoReader, end: number): void {
  let traceId = false;
  let spanId = false;
  while (r.pos < end) {
    const tag = r.varint32(end);
    if (tag === TAG_LINK_TRACE_ID) {
      const idEnd = r.lengthEnd(end);
      if (idEnd - r.pos !== 16) throw new OtlpDecodeError('link trace id must be 16 bytes');
      traceId = true;
      r.pos = idEnd;
    } else if (tag === TAG_LINK_SPAN_ID) {
      const idEnd = r.lengthEnd(end);
      if (idEnd - r.pos !== 8) throw new OtlpDecodeError('link span id must be 8 bytes');
      spanId = true;
      r.pos = idEnd;
    } else if (tag === TAG_LINK_TRACE_STATE) r.pos = r.lengthEnd(end);
    else if (tag === TAG_LINK_ATTRIBUTES) skipKeyValue(r, r.lengthEnd(end), 0);
    else if (tag === TAG_LINK_DROPPED_ATTRIBUTES) r.varint32(end);
    else r.skipUnknown(tag, end, LINK_FIELDS);
  }
  if (!traceId) throw new OtlpDecodeError('link trace id must be 16 bytes');
  if (!spanId) throw new OtlpDecodeError('link span id must be 8 bytes');
}

function skipEvent(r: ProtoReader, end: number): void {
  while (r.pos < end) {
    const tag = r.varint32(end);
    if (tag === TAG_EVENT_ATTRIBUTES) skipKeyValue(r, r.lengthEnd(end), 0);
    else if (tag === TAG_EVENT_TIME) r.fixed64(end);
    else if (tag === TAG_EVENT_NAME) r.pos = r.lengthEnd(end);
    else r.skipUnknown(tag, end, EVENT_FIELDS);
  }
}
