import type { AttrPair, LogRow } from '../model/signals.js';
import { UNKNOWN_SERVICE } from '../model/signals.js';
import { readBody, readKeyValue } from './any-value.js';
import { skipAnyValue, skipKeyValue } from './skip-values.js';
import { logIdOf } from './log-id.js';
import { TAG_ATTRIBUTES, TAG_BODY, TAG_OBSERVED_TIME, TAG_SEVERITY_NUMBER, TAG_SEVERITY_TEXT, TAG_SPAN_ID, TAG_TIME, TAG_TRACE_ID } from './log-tags.js';
import { fieldMask, type ProtoReader } from './proto-reader.js';
import { decodeEnvelopes, readOptionalSpanId, readOptionalTraceId, type ItemReader, type ScopeFields } from './read-envelope.js';
import type { WireSlices } from './wire-slices.js';

// LogRecord fields read (tags in log-tags.ts; the envelope is read-envelope.ts's): time_unix_nano = 1,
// severity_number = 2, severity_text = 3, body = 5, attributes = 6, trace_id = 9, span_id = 10, observed_time_unix_nano = 11.
const LOG_RECORD_FIELDS = fieldMask(1, 2, 3, 5, 6, 9, 10, 11);

/**
 * Decodes OTLP `LogsData` or `ExportLogsServiceRequest` protobuf bytes to log rows.
 * With usable `slices` and no log ids the rows are skimmed, as decodeTraces says for spans: every
 * check is made, but a row carries only its times, trace and span ids, service and scope.
 * Rows of one ResourceLogs share one `resource` array: treat rows as read-only.
 * Throws OtlpDecodeError on malformed input or a trace id not 0/16 bytes, span id not 0/8 bytes.
 * With `logIds: false` rows carry an empty logId: ingest only regroups and re-encodes the rows, and
 * every consumer computes the id again on decode, so hashing there was a wasted 4 % of its thread.
 * `slices`, made over the same `bytes`, learns where each record lies (ingest frames bus records from it).
 */
export function decodeLogs(bytes: Uint8Array, options: LogDecodeOptions = WITH_IDS, slices?: WireSlices): LogRow[] {
  const reader = options.logIds ? LOGS_WITH_IDS : LOGS_WITHOUT_IDS;
  // Ids hash the whole record: a skimmed row has nothing to hash, so with ids the decode is full.
  if (slices === undefined || options.logIds) return decodeEnvelopes(bytes, reader, slices);
  const skimmed = decodeEnvelopes(bytes, SKIMMED_LOGS, slices);
  return slices.usable ? skimmed : decodeEnvelopes(bytes, reader, undefined);
}

export interface LogDecodeOptions {
  /** Compute each row's content-derived logId (default true). */
  logIds: boolean;
}

export const WITH_IDS: LogDecodeOptions = { logIds: true };

/**
 * The service is part of the log id and the resource may follow the records on the wire, so both
 * are filled in once the whole ResourceLogs is read.
 */
function logsReader(logIds: boolean, readItem: ItemReader<LogRow>['readItem'] = readLogRecord): ItemReader<LogRow> {
  return {
    readItem,
    finishResource(rows, firstRow, serviceName) {
      for (let i = firstRow; i < rows.length; i++) {
        const row = rows[i];
        row.serviceName = serviceName;
        if (logIds) row.logId = logIdOf(row);
      }
    },
  };
}

const LOGS_WITH_IDS = logsReader(true);
const LOGS_WITHOUT_IDS = logsReader(false);
const SKIMMED_LOGS = logsReader(false, skimLogRecord);

/** Reads a LogRecord; its service is set once its ResourceLogs is read. */
function readLogRecord(r: ProtoReader, end: number, resource: AttrPair[], _serviceName: string, scope: ScopeFields): LogRow {
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
      case TAG_TRACE_ID:
        traceId = readOptionalTraceId(r, end, 'log trace id must be 0 or 16 bytes');
        break;
      case TAG_SPAN_ID:
        spanId = readOptionalSpanId(r, end, 'log span id must be 0 or 8 bytes');
        break;
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

const NO_ATTRS: AttrPair[] = [];

/** readLogRecord's checks, keeping only the times, ids, service and scope (see decodeLogs). */
function skimLogRecord(r: ProtoReader, end: number, resource: AttrPair[], _serviceName: string, scope: ScopeFields): LogRow {
  let timeNs = 0n;
  let observedTsNs = 0n;
  let traceId = '';
  let spanId = '';
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
        r.int32(end);
        break;
      case TAG_SEVERITY_TEXT:
        r.pos = r.lengthEnd(end);
        break;
      case TAG_BODY:
        skipAnyValue(r, r.lengthEnd(end), 0);
        break;
      case TAG_ATTRIBUTES:
        skipKeyValue(r, r.lengthEnd(end), 0);
        break;
      case TAG_TRACE_ID:
        traceId = readOptionalTraceId(r, end, 'log trace id must be 0 or 16 bytes');
        break;
      case TAG_SPAN_ID:
        spanId = readOptionalSpanId(r, end, 'log span id must be 0 or 8 bytes');
        break;
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
    severityNumber: 0,
    severityText: '',
    body: '',
    attrs: NO_ATTRS,
    resource,
    scopeName: scope.name,
    scopeVersion: scope.version,
  };
}
