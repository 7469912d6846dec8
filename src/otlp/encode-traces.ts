import type { SpanEvent, SpanLink, SpanRow } from '../model/signals.js';
import { sizeAttributes, sizeStringField, writeAttributes } from './encode-any-value.js';
import { encodeEnvelopes } from './encode-envelope.js';
import { TAG_ITEMS as TAG_SPANS } from './envelope-tags.js';
import { OtlpEncodeError } from './errors.js';
import { fieldSize, ProtoWriter, varintSize } from './proto-writer.js';
import { spanKindValue, spanStatusValue } from './span-enums.js';
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

/** Reused across calls: encoding is synchronous, so one plan buffer serves every call. */
const writer = new ProtoWriter();

/**
 * Encodes span rows as OTLP `TracesData` protobuf (the bus record value, readable by the
 * OpenTelemetry Collector), grouped by resource and scope. decodeTraces of the result returns the
 * same rows, in grouped order. Throws OtlpEncodeError on ids of the wrong length or not hex.
 */
export function encodeTracesData(spans: SpanRow[]): Buffer {
  return encodeEnvelopes(writer, spans, sizeSpan, writeSpan);
}

function checkIdLength(id: string, hexChars: number, what: string): void {
  if (id.length !== hexChars) throw new OtlpEncodeError(`${what} must be ${hexChars} hex characters`);
}

/** Content bytes of a Span; defaults (empty, zero) are omitted as proto3 does. */
function sizeSpan(w: ProtoWriter, span: SpanRow): number {
  checkIdLength(span.traceId, 32, 'trace id');
  checkIdLength(span.spanId, 16, 'span id');
  const slot = w.reserve();
  let bytes = 18 + 10; // trace id and span id fields
  if (span.parentSpanId !== '') {
    checkIdLength(span.parentSpanId, 16, 'parent span id');
    bytes += 10;
  }
  if (span.name !== '') bytes += sizeStringField(w, span.name);
  const kind = spanKindValue(span.kind);
  if (kind !== 0) bytes += 2;
  if (span.startNs !== 0n) bytes += 9;
  if (span.endNs !== 0n) bytes += 9;
  bytes += sizeAttributes(w, span.attrs);
  for (const event of span.events) bytes += fieldSize(sizeEvent(w, event));
  if (span.links !== undefined) for (const link of span.links) bytes += fieldSize(sizeLink(w, link));
  const status = spanStatusValue(span.status);
  if (status !== 0 || span.statusMessage !== '') {
    let statusBytes = 0;
    if (span.statusMessage !== '') statusBytes += sizeStringField(w, span.statusMessage);
    if (status !== 0) statusBytes += 2;
    bytes += fieldSize(statusBytes);
  }
  w.setPlanned(slot, bytes);
  return bytes;
}

function writeSpan(w: ProtoWriter, span: SpanRow): void {
  w.messageHeader(TAG_SPANS, w.next());
  w.hexField(TAG_TRACE_ID, span.traceId);
  w.hexField(TAG_SPAN_ID, span.spanId);
  if (span.parentSpanId !== '') w.hexField(TAG_PARENT_SPAN_ID, span.parentSpanId);
  if (span.name !== '') w.stringField(TAG_NAME, span.name);
  const kind = spanKindValue(span.kind);
  if (kind !== 0) {
    w.buf[w.pos++] = TAG_KIND;
    w.buf[w.pos++] = kind;
  }
  if (span.startNs !== 0n) {
    w.buf[w.pos++] = TAG_START;
    w.fixed64(span.startNs);
  }
  if (span.endNs !== 0n) {
    w.buf[w.pos++] = TAG_END;
    w.fixed64(span.endNs);
  }
  writeAttributes(w, TAG_ATTRIBUTES, span.attrs);
  for (const event of span.events) writeEvent(w, event);
  if (span.links !== undefined) for (const link of span.links) writeLink(w, link);
  const status = spanStatusValue(span.status);
  if (status !== 0 || span.statusMessage !== '') {
    // Status content is tiny: recompute its size instead of planning a slot for it.
    const messageBytes = span.statusMessage === '' ? 0 : peekStringFieldBytes(w);
    w.messageHeader(TAG_STATUS, messageBytes + (status !== 0 ? 2 : 0));
    if (span.statusMessage !== '') w.stringField(TAG_STATUS_MESSAGE, span.statusMessage);
    if (status !== 0) {
      w.buf[w.pos++] = TAG_STATUS_CODE;
      w.buf[w.pos++] = status;
    }
  }
}

/** Field bytes of the next planned string without consuming its slot. */
function peekStringFieldBytes(w: ProtoWriter): number {
  const byteLength = w.peek();
  return 1 + varintSize(byteLength) + byteLength;
}

function sizeEvent(w: ProtoWriter, event: SpanEvent): number {
  const slot = w.reserve();
  let bytes = event.tsNs !== 0n ? 9 : 0;
  if (event.name !== '') bytes += sizeStringField(w, event.name);
  bytes += sizeAttributes(w, event.attrs);
  w.setPlanned(slot, bytes);
  return bytes;
}

function writeEvent(w: ProtoWriter, event: SpanEvent): void {
  w.messageHeader(TAG_EVENTS, w.next());
  if (event.tsNs !== 0n) {
    w.buf[w.pos++] = TAG_EVENT_TIME;
    w.fixed64(event.tsNs);
  }
  if (event.name !== '') w.stringField(TAG_EVENT_NAME, event.name);
  writeAttributes(w, TAG_EVENT_ATTRIBUTES, event.attrs);
}

function sizeLink(w: ProtoWriter, link: SpanLink): number {
  checkIdLength(link.traceId, 32, 'link trace id');
  checkIdLength(link.spanId, 16, 'link span id');
  const slot = w.reserve();
  let bytes = 18 + 10; // trace id and span id fields
  if (link.traceState !== '') bytes += sizeStringField(w, link.traceState);
  bytes += sizeAttributes(w, link.attrs);
  if (link.droppedAttrsCount !== 0) bytes += 1 + varintSize(link.droppedAttrsCount);
  w.setPlanned(slot, bytes);
  return bytes;
}

function writeLink(w: ProtoWriter, link: SpanLink): void {
  w.messageHeader(TAG_LINKS, w.next());
  w.hexField(TAG_LINK_TRACE_ID, link.traceId);
  w.hexField(TAG_LINK_SPAN_ID, link.spanId);
  if (link.traceState !== '') w.stringField(TAG_LINK_TRACE_STATE, link.traceState);
  writeAttributes(w, TAG_LINK_ATTRIBUTES, link.attrs);
  if (link.droppedAttrsCount !== 0) {
    w.buf[w.pos++] = TAG_LINK_DROPPED_ATTRIBUTES;
    w.varint(link.droppedAttrsCount);
  }
}
