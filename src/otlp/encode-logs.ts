import type { LogRow } from '../model/signals.js';
import { sizeAttributes, sizeStringField, writeAttributes } from './encode-any-value.js';
import { encodeEnvelopes } from './encode-envelope.js';
import { TAG_ITEMS as TAG_LOG_RECORDS } from './envelope-tags.js';
import { OtlpEncodeError } from './errors.js';
import { TAG_ATTRIBUTES, TAG_BODY, TAG_OBSERVED_TIME, TAG_SEVERITY_NUMBER, TAG_SEVERITY_TEXT, TAG_SPAN_ID, TAG_TIME, TAG_TRACE_ID } from './log-tags.js';
import { fieldSize, ProtoWriter, varintSize } from './proto-writer.js';

/** AnyValue.string_value: the body always goes out as a string (non-string bodies are already JSON text). */
const TAG_BODY_STRING = 0x0a;

/** Reused across calls: encoding is synchronous, so one plan buffer serves every call. */
const writer = new ProtoWriter();

/**
 * Encodes log rows as OTLP `LogsData` protobuf, grouped by resource and scope. decodeLogs of the
 * result returns the same rows (same logId, which is content-derived), in grouped order.
 * Throws OtlpEncodeError on ids of the wrong length or not hex.
 */
export function encodeLogsData(logs: LogRow[]): Buffer {
  return encodeEnvelopes(writer, logs, sizeLogRecord, writeLogRecord);
}

function int32Size(value: number): number {
  return value < 0 ? 10 : varintSize(value);
}

/** Content bytes of a LogRecord; defaults (empty, zero) are omitted as proto3 does. */
function sizeLogRecord(w: ProtoWriter, log: LogRow): number {
  if (log.traceId !== '' && log.traceId.length !== 32) throw new OtlpEncodeError('trace id must be 32 hex characters');
  if (log.spanId !== '' && log.spanId.length !== 16) throw new OtlpEncodeError('span id must be 16 hex characters');
  const slot = w.reserve();
  let bytes = 0;
  if (log.tsNs !== 0n) bytes += 9;
  if (log.severityNumber !== 0) bytes += 1 + int32Size(log.severityNumber);
  if (log.severityText !== '') bytes += sizeStringField(w, log.severityText);
  if (log.body !== '') bytes += fieldSize(sizeStringField(w, log.body));
  bytes += sizeAttributes(w, log.attrs);
  if (log.traceId !== '') bytes += 18;
  if (log.spanId !== '') bytes += 10;
  if (log.observedTsNs !== 0n) bytes += 9;
  w.setPlanned(slot, bytes);
  return bytes;
}

function writeLogRecord(w: ProtoWriter, log: LogRow): void {
  w.messageHeader(TAG_LOG_RECORDS, w.next());
  if (log.tsNs !== 0n) {
    w.buf[w.pos++] = TAG_TIME;
    w.fixed64(log.tsNs);
  }
  if (log.severityNumber !== 0) {
    w.buf[w.pos++] = TAG_SEVERITY_NUMBER;
    w.int32(log.severityNumber);
  }
  if (log.severityText !== '') w.stringField(TAG_SEVERITY_TEXT, log.severityText);
  if (log.body !== '') {
    const bodyBytes = w.peek();
    w.messageHeader(TAG_BODY, 1 + varintSize(bodyBytes) + bodyBytes);
    w.stringField(TAG_BODY_STRING, log.body);
  }
  writeAttributes(w, TAG_ATTRIBUTES, log.attrs);
  if (log.traceId !== '') w.hexField(TAG_TRACE_ID, log.traceId);
  if (log.spanId !== '') w.hexField(TAG_SPAN_ID, log.spanId);
  if (log.observedTsNs !== 0n) {
    w.buf[w.pos++] = TAG_OBSERVED_TIME;
    w.fixed64(log.observedTsNs);
  }
}
