/**
 * Protobuf tags of the OTLP trace messages, shared by the decoder and the encoder so the two can
 * never disagree. A tag is (field << 3) | wire type; field numbers from opentelemetry-proto trace.proto.
 */

// The envelope (TracesData, ResourceSpans, ScopeSpans) is shared with logs: envelope-tags.ts.
// Span: trace_id = 1, span_id = 2, parent_span_id = 4, name = 5, kind = 6 (enum),
// start_time_unix_nano = 7 and end_time_unix_nano = 8 (fixed64), attributes = 9, events = 11, status = 15.
export const TAG_TRACE_ID = 0x0a;
export const TAG_SPAN_ID = 0x12;
export const TAG_PARENT_SPAN_ID = 0x22;
export const TAG_NAME = 0x2a;
export const TAG_KIND = 0x30;
export const TAG_START = 0x39;
export const TAG_END = 0x41;
export const TAG_ATTRIBUTES = 0x4a;
export const TAG_EVENTS = 0x5a;
export const TAG_STATUS = 0x7a;
// Status: message = 2, code = 3 (enum).
export const TAG_STATUS_MESSAGE = 0x12;
export const TAG_STATUS_CODE = 0x18;
// Span: links = 13.
export const TAG_LINKS = 0x6a;
// Span.Link: trace_id = 1, span_id = 2, trace_state = 3, attributes = 4, dropped_attributes_count = 5 (uint32).
export const TAG_LINK_TRACE_ID = 0x0a;
export const TAG_LINK_SPAN_ID = 0x12;
export const TAG_LINK_TRACE_STATE = 0x1a;
export const TAG_LINK_ATTRIBUTES = 0x22;
export const TAG_LINK_DROPPED_ATTRIBUTES = 0x28;
// Span.Event: time_unix_nano = 1 (fixed64), name = 2, attributes = 3.
export const TAG_EVENT_TIME = 0x09;
export const TAG_EVENT_NAME = 0x12;
export const TAG_EVENT_ATTRIBUTES = 0x1a;
