import type { AttrPair, SpanEvent, SpanLink, SpanRow } from '../model/signals.js';
import { SPAN_KIND_NAMES, STATUS_CODE_NAMES } from './enum-names.js';
import { OtlpDecodeError } from './errors.js';
import { jsonAttributes } from './json-any-value.js';
import { decodeJsonEnvelopes, jsonEnvelopeNames } from './json-envelope.js';
import { jsonArray, jsonEnum, jsonId, jsonObject, jsonString, jsonUint32, jsonUint64 } from './json-fields.js';
import type { ScopeFields } from './read-envelope.js';
import { spanKindOf, spanStatusOf } from './span-enums.js';

/**
 * Decodes a parsed OTLP/JSON `ExportTraceServiceRequest` / `TracesData` to the same span rows the
 * protobuf path gives. Throws OtlpDecodeError on a value of the wrong type or a bad id.
 */
export function decodeTracesJson(value: unknown): SpanRow[] {
  return decodeJsonEnvelopes(value, SPAN_NAMES, jsonSpan);
}

const SPAN_NAMES = jsonEnvelopeNames('resourceSpans', 'scopeSpans', 'spans');

function jsonSpan(value: unknown, resource: AttrPair[], serviceName: string, scope: ScopeFields): SpanRow {
  const span = jsonObject(value, 'span');
  if (span === null) throw new OtlpDecodeError('span must be an object');
  const status = jsonObject(span.status, 'status');
  const events: SpanEvent[] = [];
  for (const event of jsonArray(span.events, 'events')) events.push(jsonEvent(event));
  const links = jsonArray(span.links, 'links');
  return {
    traceId: jsonId(span.traceId, 16, false, 'traceId'),
    spanId: jsonId(span.spanId, 8, false, 'spanId'),
    parentSpanId: jsonId(span.parentSpanId, 8, true, 'parentSpanId'),
    serviceName,
    name: jsonString(span.name, 'name'),
    kind: spanKindOf(jsonEnum(span.kind, SPAN_KIND_NAMES, 'kind')),
    startNs: jsonUint64(span.startTimeUnixNano, 'startTimeUnixNano'),
    endNs: jsonUint64(span.endTimeUnixNano, 'endTimeUnixNano'),
    status: spanStatusOf(status === null ? 0 : jsonEnum(status.code, STATUS_CODE_NAMES, 'status.code')),
    statusMessage: status === null ? '' : jsonString(status.message, 'status.message'),
    attrs: jsonAttributes(span.attributes, []),
    resource,
    events,
    scopeName: scope.name,
    scopeVersion: scope.version,
    ...(links.length === 0 ? {} : { links: links.map(jsonLink) }),
  };
}

function jsonLink(value: unknown): SpanLink {
  const link = jsonObject(value, 'link');
  if (link === null) throw new OtlpDecodeError('link must be an object');
  return {
    traceId: jsonId(link.traceId, 16, false, 'link.traceId'),
    spanId: jsonId(link.spanId, 8, false, 'link.spanId'),
    traceState: jsonString(link.traceState, 'link.traceState'),
    attrs: jsonAttributes(link.attributes, []),
    droppedAttrsCount: jsonUint32(link.droppedAttributesCount, 'link.droppedAttributesCount'),
  };
}

function jsonEvent(value: unknown): SpanEvent {
  const event = jsonObject(value, 'event');
  if (event === null) throw new OtlpDecodeError('event must be an object');
  return {
    tsNs: jsonUint64(event.timeUnixNano, 'event.timeUnixNano'),
    name: jsonString(event.name, 'event.name'),
    attrs: jsonAttributes(event.attributes, []),
  };
}
