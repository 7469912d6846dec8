/** One row per mined log line: a template's hit series, recent hits and the templates of a trace. */

import type { Store } from '../model/store.js';
import { encodeLines } from './compact-json.js';
import { RowBinaryWriter } from './row-binary.js';
import { PermanentError } from '../util/retry.js';

const HIT_COLUMNS = ['ts_ns', 'template_id', 'service', 'log_id', 'trace_id', 'span_id', 'severity_number'] as const;

const U64_DECIMAL = /^\d{1,20}$/;
const s = JSON.stringify;

export interface TemplateHitRow {
  tsNs: bigint;
  templateId: string;
  service: string;
  logId: string;
  /** '' without trace context. */
  traceId: string;
  spanId: string;
  severityNumber: number;
}

const BAD_IDS = 'templateId and logId must be unsigned 64-bit decimal strings';

function hitLine(r: TemplateHitRow): string {
  // Both ids are spliced in unquoted, so they must be digits only.
  if (!U64_DECIMAL.test(r.templateId) || !U64_DECIMAL.test(r.logId)) throw new PermanentError(BAD_IDS);
  return `[${r.tsNs},${r.templateId},${s(r.service)},${r.logId},${s(r.traceId)},${s(r.spanId)},${Math.min(255, Math.max(0, r.severityNumber | 0))}]\n`;
}

/** Hits as RowBinary in HIT_COLUMNS order: one row per mined log, so the engine's parsing counts (3.8 µs a row as JSON, 2026-11-28). */
function hitsRowBinary(rows: readonly TemplateHitRow[]): Buffer {
  const out = new RowBinaryWriter();
  for (const r of rows) {
    out.int64(r.tsNs);
    // Both ids written from their digits (what uint64(BigInt(id)) writes, without a regex test and a BigInt per id).
    if (!out.uint64Decimal(r.templateId)) throw new PermanentError(BAD_IDS);
    out.string(r.service);
    if (!out.uint64Decimal(r.logId)) throw new PermanentError(BAD_IDS);
    out.string(r.traceId);
    out.string(r.spanId);
    out.uint8(Math.min(255, Math.max(0, r.severityNumber | 0)));
  }
  return out.finish();
}

/** Stores hits in one insert, in the store's bulk format. Replays are harmless: reads dedupe by log id. */
export async function insertTemplateHits(store: Store, rows: readonly TemplateHitRow[]): Promise<void> {
  if (rows.length === 0) return;
  if (store.bulkFormat === 'RowBinary') await store.insertRaw('template_hits', HIT_COLUMNS, hitsRowBinary(rows), 'RowBinary');
  else await store.insertRaw('template_hits', HIT_COLUMNS, encodeLines(rows, hitLine));
}

/** Up to `limit` distinct trace ids of the template's hits in [fromNs, toNs], newest first. */
export async function readExampleTraceIds(
  store: Store,
  key: { service: string; templateId: string },
  fromNs: bigint,
  toNs: bigint,
  limit: number,
): Promise<string[]> {
  const rows = await store.query<{ trace_id: string }>(
    `SELECT trace_id FROM (
       SELECT trace_id, max(ts_ns) AS newest
       FROM template_hits
       WHERE service = {service:String} AND template_id = {template_id:UInt64}
         AND ts_ns >= {from_ns:Int64} AND ts_ns <= {to_ns:Int64} AND trace_id != ''
       GROUP BY trace_id
     )
     ORDER BY newest DESC, trace_id
     LIMIT {limit:UInt32}`,
    { service: key.service, template_id: key.templateId, from_ns: fromNs, to_ns: toNs, limit },
  );
  return rows.map((r) => r.trace_id);
}
