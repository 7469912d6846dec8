/** Raw log rows: bulk insert and the logs of a trace. */

import type { InsertFormat, Store } from '../model/store.js';
import type { LogRow } from '../model/signals.js';
import { attrsFromJson, attrsToJson } from './attrs-json.js';
import { encodeLines } from './compact-json.js';
import { oldestAllowedNs } from './lifetimes.js';
import { RowBinaryWriter } from './row-binary.js';
import type { TraceReadOptions } from './spans.js';
import { PermanentError } from '../util/retry.js';

/** The logs table's inserted columns, in payload order. */
export const LOG_COLUMNS = [
  'log_id',
  'ts_ns',
  'observed_ts_ns',
  'trace_id',
  'span_id',
  'service_name',
  'severity_number',
  'severity_text',
  'body',
  'attrs',
  'resource',
  'scope_name',
  'scope_version',
] as const;

const U64_DECIMAL = /^\d{1,20}$/;

const s = JSON.stringify;

/** One JSONCompactEachRow line per log; log_id and ns as bare integers so they stay exact. */
function logLine(r: LogRow): string {
  // log_id is spliced in unquoted, so it must be digits only (a content hash from the decoder).
  if (!U64_DECIMAL.test(r.logId)) throw new PermanentError('logId must be an unsigned 64-bit decimal string');
  return (
    `[${r.logId},${r.tsNs},${r.observedTsNs},${s(r.traceId)},${s(r.spanId)},${s(r.serviceName)},` +
    `${r.severityNumber},${s(r.severityText)},${s(r.body)},${s(attrsToJson(r.attrs))},` +
    `${s(attrsToJson(r.resource))},${s(r.scopeName)},${s(r.scopeVersion)}]\n`
  );
}

/** Logs as an insert payload in LOG_COLUMNS order (the writer encodes as rows arrive, so the rows die young). */
export function encodeLogRows(rows: readonly LogRow[], format: InsertFormat): Buffer {
  return format === 'RowBinary' ? logRowBinary(rows) : encodeLines(rows, logLine);
}

function logRowBinary(rows: readonly LogRow[]): Buffer {
  const out = new RowBinaryWriter();
  for (const r of rows) {
    // log_id is a content hash from the decoder: an unsigned 64-bit decimal.
    if (!out.uint64Decimal(r.logId)) throw new PermanentError('logId must be an unsigned 64-bit decimal string');
    out.int64(r.tsNs);
    out.int64(r.observedTsNs);
    out.string(r.traceId);
    out.string(r.spanId);
    out.string(r.serviceName);
    out.uint8(Math.min(255, Math.max(0, r.severityNumber | 0)));
    out.string(r.severityText);
    out.string(r.body);
    out.json(r.attrs);
    out.jsonOfShared(r.resource);
    out.string(r.scopeName);
    out.string(r.scopeVersion);
  }
  return out.finish();
}

/** Stores a payload of encodeLogRows() in `format` (or several concatenated) in one insert. */
export async function insertLogRows(store: Store, payload: Buffer, format: InsertFormat): Promise<void> {
  await store.insertRaw('logs', LOG_COLUMNS, payload, format);
}

interface StoredLog {
  log_id: string;
  ts_ns: string;
  observed_ts_ns: string;
  trace_id: string;
  span_id: string;
  service_name: string;
  severity_number: number;
  severity_text: string;
  body: string;
  attrs: string;
  resource: string;
  scope_name: string;
  scope_version: string;
}

function toLogRow(r: StoredLog): LogRow {
  return {
    logId: r.log_id,
    tsNs: BigInt(r.ts_ns),
    observedTsNs: BigInt(r.observed_ts_ns),
    traceId: r.trace_id,
    spanId: r.span_id,
    serviceName: r.service_name,
    severityNumber: r.severity_number,
    severityText: r.severity_text,
    body: r.body,
    attrs: attrsFromJson(r.attrs),
    resource: attrsFromJson(r.resource),
    scopeName: r.scope_name,
    scopeVersion: r.scope_version,
  };
}

/** The logs of one trace within the logs lifetime, each once, oldest first. */
export async function getTraceLogs(store: Store, traceId: string, options: TraceReadOptions = {}): Promise<LogRow[]> {
  const rows = await store.query<StoredLog>(
    `SELECT ${LOG_COLUMNS.join(', ')}
     FROM logs
     WHERE trace_id = {trace_id:String} AND ts_ns >= {oldest_ns:Int64}
     ORDER BY ts_ns, log_id
     LIMIT 1 BY log_id`,
    { trace_id: traceId, oldest_ns: oldestAllowedNs('logs', options.nowMs ?? Date.now()) },
    { timeoutSecs: options.timeoutSecs, signal: options.signal },
  );
  return rows.map(toLogRow);
}
