import type { LogRow } from '../model/signals.js';
import { sizeAttributes, sizeStringField, writeAttributes } from './encode-any-value.js';
import { sizeResourceField, sizeScopeField, writeResourceField, writeScopeField } from './encode-envelope.js';
import { OtlpEncodeError } from './errors.js';
import { groupRows } from './group-rows.js';
import { fieldSize, ProtoWriter, varintSize } from './proto-writer.js';

// Tags are (field << 3) | wire type, field numbers from opentelemetry-proto logs.proto.
const TAG_RESOURCE_LOGS = 0x0a;
const TAG_RESOURCE = 0x0a;
const TAG_SCOPE_LOGS = 0x12;
const TAG_SCOPE = 0x0a;
const TAG_LOG_RECORDS = 0x12;
const TAG_TIME = 0x09;
const TAG_SEVERITY_NUMBER = 0x10;
const TAG_SEVERITY_TEXT = 0x1a;
const TAG_BODY = 0x2a;
const TAG_ATTRIBUTES = 0x32;
const TAG_TRACE_ID = 0x4a;
const TAG_SPAN_ID = 0x52;
const TAG_OBSERVED_TIME = 0x59;
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
  const groups = groupRows(logs);
  const w = writer;
  w.resetPlan();
  let total = 0;
  for (const group of groups) {
    const resourceSlot = w.reserve();
    let resourceLogs = sizeResourceField(w, group.resource);
    for (const scope of group.scopes) {
      const scopeSlot = w.reserve();
      let scopeLogs = sizeScopeField(w, scope.name, scope.version);
      for (const log of scope.rows) scopeLogs += fieldSize(sizeLogRecord(w, log));
      w.setPlanned(scopeSlot, scopeLogs);
      resourceLogs += fieldSize(scopeLogs);
    }
    w.setPlanned(resourceSlot, resourceLogs);
    total += fieldSize(resourceLogs);
  }
  w.startWrite(total);
  for (const group of groups) {
    w.messageHeader(TAG_RESOURCE_LOGS, w.next());
    writeResourceField(w, TAG_RESOURCE, group.resource);
    for (const scope of group.scopes) {
      w.messageHeader(TAG_SCOPE_LOGS, w.next());
      writeScopeField(w, TAG_SCOPE, scope.name, scope.version);
      for (const log of scope.rows) writeLogRecord(w, log);
    }
  }
  return w.finish();
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
