/**
 * Protobuf tags of the OTLP LogRecord, shared by the decoder and the encoder so the two can never
 * disagree. A tag is (field << 3) | wire type; field numbers from opentelemetry-proto logs.proto.
 * The envelope around the records is in envelope-tags.ts.
 */

// LogRecord: time_unix_nano = 1 (fixed64), severity_number = 2, severity_text = 3, body = 5,
// attributes = 6, trace_id = 9, span_id = 10, observed_time_unix_nano = 11 (fixed64).
export const TAG_TIME = 0x09;
export const TAG_SEVERITY_NUMBER = 0x10;
export const TAG_SEVERITY_TEXT = 0x1a;
export const TAG_BODY = 0x2a;
export const TAG_ATTRIBUTES = 0x32;
export const TAG_TRACE_ID = 0x4a;
export const TAG_SPAN_ID = 0x52;
export const TAG_OBSERVED_TIME = 0x59;
