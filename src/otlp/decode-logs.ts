import type { AttrPair, LogRow } from '../model/signals.js';
import { UNKNOWN_SERVICE } from '../model/signals.js';
import { readBody, readKeyValue } from './any-value.js';
import { OtlpDecodeError } from './errors.js';
import { hex8, traceIdHex, ZERO_SPAN_ID, ZERO_TRACE_ID } from './hex.js';
import { logIdOf } from './log-id.js';
import { fieldMask, ProtoReader } from './proto-reader.js';
import { readResource, readScope, type ScopeFields } from './read-envelope.js';
import { serviceNameOf } from './service-name.js';
import type { WireSlices } from './wire-slices.js';

// Tags are (field << 3) | wire type, field numbers from opentelemetry-proto logs.proto.
// LogsData and ExportLogsServiceRequest: resource_logs = 1.
const TAG_RESOURCE_LOGS = 0x0a;
const LOGS_DATA_FIELDS = fieldMask(1);
// ResourceLogs: resource = 1, scope_logs = 2. ScopeLogs: scope = 1, log_records = 2.
const TAG_RESOURCE = 0x0a;
const TAG_SCOPE_LOGS = 0x12;
const TAG_SCOPE = 0x0a;
const TAG_LOG_RECORDS = 0x12;
const ENVELOPE_FIELDS = fieldMask(1, 2);
// LogRecord: time_unix_nano = 1 (fixed64), severity_number = 2, severity_text = 3, body = 5,
// attributes = 6, trace_id = 9, span_id = 10, observed_time_unix_nano = 11 (fixed64).
const TAG_TIME = 0x09;
const TAG_SEVERITY_NUMBER = 0x10;
const TAG_SEVERITY_TEXT = 0x1a;
const TAG_BODY = 0x2a;
const TAG_ATTRIBUTES = 0x32;
const TAG_TRACE_ID = 0x4a;
const TAG_SPAN_ID = 0x52;
const TAG_OBSERVED_TIME = 0x59;
const LOG_RECORD_FIELDS = fieldMask(1, 2, 3, 5, 6, 9, 10, 11);

/**
 * Decodes OTLP `LogsData` or `ExportLogsServiceRequest` protobuf bytes to log rows.
 * Rows of one ResourceLogs share one `resource` array: treat rows as read-only.
 * Throws OtlpDecodeError on malformed input or a trace id not 0/16 bytes, span id not 0/8 bytes.
 * With `logIds: false` rows carry an empty logId: ingest only regroups and re-encodes the rows, and
 * every consumer computes the id again on decode, so hashing there was a wasted 4 % of its thread.
 * `slices`, made over the same `bytes`, learns where each record lies (ingest frames bus records from it).
 */
export function decodeLogs(bytes: Uint8Array, options: LogDecodeOptions = WITH_IDS, slices?: WireSlices): LogRow[] {
  const r = new ProtoReader(bytes);
  const end = r.buf.length;
  const rows: LogRow[] = [];
  while (r.pos < end) {
    const tag = r.varint32(end);
    if (tag === TAG_RESOURCE_LOGS) {
      readResourceLogs(r, r.lengthEnd(end), rows, options.logIds, slices);
    } else {
      r.skipUnknown(tag, end, LOGS_DATA_FIELDS);
    }
  }
  return rows;
}

export interface LogDecodeOptions {
  /** Compute each row's content-derived logId (default true). */
  logIds: boolean;
}

export const WITH_IDS: LogDecodeOptions = { logIds: true };

function readResourceLogs(r: ProtoReader, end: number, rows: LogRow[], logIds: boolean, slices: WireSlices | undefined): void {
  const resource: AttrPair[] = [];
  const resourceRange = slices?.openResource();
  const firstRow = rows.length;
  while (r.pos < end) {
    const tag = r.varint32(end);
    if (tag === TAG_SCOPE_LOGS) {
      readScopeLogs(r, r.lengthEnd(end), rows, resource, slices, resourceRange);
    } else if (tag === TAG_RESOURCE) {
      const resourceEnd = r.lengthEnd(end);
      if (slices !== undefined) slices.setResource(resourceRange!, r.pos, resourceEnd);
      readResource(r, resourceEnd, resource);
    } else {
      r.skipUnknown(tag, end, ENVELOPE_FIELDS);
    }
  }
  // The service is part of the log id and the resource may follow the records on the wire,
  // so both are filled in once the whole ResourceLogs is read.
  const serviceName = serviceNameOf(resource);
  for (let i = firstRow; i < rows.length; i++) {
    const row = rows[i];
    row.serviceName = serviceName;
    if (logIds) row.logId = logIdOf(row);
  }
}

function readScopeLogs(
  r: ProtoReader,
  end: number,
  rows: LogRow[],
  resource: AttrPair[],
  slices: WireSlices | undefined,
  resourceRange: ReturnType<WireSlices['openResource']> | undefined,
): void {
  const scope: ScopeFields = { name: '', version: '' };
  const envelope = slices === undefined ? -1 : slices.openScope(resourceRange!);
  const firstRow = rows.length;
  let scopeAfterRecords = false;
  while (r.pos < end) {
    const tag = r.varint32(end);
    if (tag === TAG_LOG_RECORDS) {
      const recordEnd = r.lengthEnd(end);
      if (slices !== undefined) slices.addItem(envelope, r.pos, recordEnd);
      rows.push(readLogRecord(r, recordEnd, resource, scope));
    } else if (tag === TAG_SCOPE) {
      const scopeEnd = r.lengthEnd(end);
      if (slices !== undefined) slices.setScope(envelope, r.pos, scopeEnd);
      readScope(r, scopeEnd, scope);
      if (rows.length > firstRow) scopeAfterRecords = true;
    } else {
      r.skipUnknown(tag, end, ENVELOPE_FIELDS);
    }
  }
  if (scopeAfterRecords) {
    for (let i = firstRow; i < rows.length; i++) {
      rows[i].scopeName = scope.name;
      rows[i].scopeVersion = scope.version;
    }
  }
}

function readLogRecord(r: ProtoReader, end: number, resource: AttrPair[], scope: ScopeFields): LogRow {
  const buf = r.buf;
  let timeNs = 0n;
  let observedTsNs = 0n;
  let traceId = '';
  let spanId = '';
  let severityNumber = 0;
  let severityText = '';
  let body = '';
  const attrs: AttrPair[] = [];
  while (r.pos < end) {
    const tag = r.varint32(end);
    switch (tag) {
      case TAG_TIME:
        timeNs = r.fixed64(end);
        break;
      case TAG_OBSERVED_TIME:
        observedTsNs = r.fixed64(end);
        break;
      case TAG_SEVERITY_NUMBER:
        severityNumber = r.int32(end);
        break;
      case TAG_SEVERITY_TEXT:
        severityText = r.string(end);
        break;
      case TAG_BODY:
        body = readBody(r, r.lengthEnd(end));
        break;
      case TAG_ATTRIBUTES:
        attrs.push(readKeyValue(r, r.lengthEnd(end), 0));
        break;
      case TAG_TRACE_ID: {
        const idEnd = r.lengthEnd(end);
        const idLength = idEnd - r.pos;
        if (idLength === 16) {
          traceId = traceIdHex(buf, r.pos);
          if (traceId === ZERO_TRACE_ID) traceId = '';
        } else if (idLength === 0) {
          traceId = '';
        } else {
          throw new OtlpDecodeError('log trace id must be 0 or 16 bytes');
        }
        r.pos = idEnd;
        break;
      }
      case TAG_SPAN_ID: {
        const idEnd = r.lengthEnd(end);
        const idLength = idEnd - r.pos;
        if (idLength === 8) {
          spanId = hex8(buf, r.pos);
          if (spanId === ZERO_SPAN_ID) spanId = '';
        } else if (idLength === 0) {
          spanId = '';
        } else {
          throw new OtlpDecodeError('log span id must be 0 or 8 bytes');
        }
        r.pos = idEnd;
        break;
      }
      default:
        r.skipUnknown(tag, end, LOG_RECORD_FIELDS);
    }
  }
  return {
    logId: '',
    tsNs: timeNs === 0n ? observedTsNs : timeNs,
    observedTsNs,
    traceId,
    spanId,
    serviceName: UNKNOWN_SERVICE,
    severityNumber,
    severityText,
    body,
    attrs,
    resource,
    scopeName: scope.name,
    scopeVersion: scope.version,
  };
}
