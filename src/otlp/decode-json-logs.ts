import type { AttrPair, LogRow } from '../model/signals.js';
import { SEVERITY_NUMBER_NAMES } from './enum-names.js';
import { OtlpDecodeError } from './errors.js';
import { jsonAttributes, jsonBody } from './json-any-value.js';
import { decodeJsonEnvelopes, jsonEnvelopeNames } from './json-envelope.js';
import { jsonEnum, jsonId, jsonObject, jsonString, jsonUint64 } from './json-fields.js';
import { WITH_IDS, type LogDecodeOptions } from './decode-logs.js';
import { logIdOf } from './log-id.js';
import type { ScopeFields } from './read-envelope.js';

/**
 * Decodes a parsed OTLP/JSON `ExportLogsServiceRequest` / `LogsData` to the same log rows the
 * protobuf path gives. Throws OtlpDecodeError on a value of the wrong type or a bad id.
 */
export function decodeLogsJson(value: unknown, options: LogDecodeOptions = WITH_IDS): LogRow[] {
  return decodeJsonEnvelopes(value, LOG_NAMES, options.logIds ? jsonLogRecordWithId : jsonLogRecordWithoutId);
}

const LOG_NAMES = jsonEnvelopeNames('resourceLogs', 'scopeLogs', 'logRecords');

function jsonLogRecordWithId(value: unknown, resource: AttrPair[], serviceName: string, scope: ScopeFields): LogRow {
  return jsonLogRecord(value, resource, serviceName, scope, true);
}

function jsonLogRecordWithoutId(value: unknown, resource: AttrPair[], serviceName: string, scope: ScopeFields): LogRow {
  return jsonLogRecord(value, resource, serviceName, scope, false);
}

function jsonLogRecord(value: unknown, resource: AttrPair[], serviceName: string, scope: ScopeFields, logIds: boolean): LogRow {
  const record = jsonObject(value, 'logRecord');
  if (record === null) throw new OtlpDecodeError('logRecord must be an object');
  const timeNs = jsonUint64(record.timeUnixNano, 'timeUnixNano');
  const observedTsNs = jsonUint64(record.observedTimeUnixNano, 'observedTimeUnixNano');
  const row: LogRow = {
    logId: '',
    tsNs: timeNs === 0n ? observedTsNs : timeNs,
    observedTsNs,
    traceId: jsonId(record.traceId, 16, true, 'traceId'),
    spanId: jsonId(record.spanId, 8, true, 'spanId'),
    serviceName,
    severityNumber: jsonEnum(record.severityNumber, SEVERITY_NUMBER_NAMES, 'severityNumber'),
    severityText: jsonString(record.severityText, 'severityText'),
    body: jsonBody(record.body),
    attrs: jsonAttributes(record.attributes, []),
    resource,
    scopeName: scope.name,
    scopeVersion: scope.version,
  };
  if (logIds) row.logId = logIdOf(row);
  return row;
}
