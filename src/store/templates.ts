/** Mined log templates: the logminer's upserts (newest updated_at_ms wins) and its restore read. */

import type { Store } from '../model/store.js';
import { encodeLines } from './compact-json.js';
import { oldestAllowedNs } from './lifetimes.js';
import { PermanentError } from '../util/retry.js';

const TEMPLATE_COLUMNS = [
  'template_id',
  'service',
  'template',
  'count',
  'first_seen_ns',
  'last_seen_ns',
  'max_severity',
  'sample',
  'masking_version',
  'signature',
  'overflow',
  'created_seq',
  'updated_at_ms',
] as const;

const U64_DECIMAL = /^\d{1,20}$/;
const s = JSON.stringify;

/** One version of a template row. */
export interface TemplateRow {
  templateId: string;
  service: string;
  template: string;
  /** Approximate lines mined into it since creation. */
  count: number;
  firstSeenNs: bigint;
  lastSeenNs: bigint;
  maxSeverity: number;
  sample: string;
  maskingVersion: number;
  /** Masked tokens of the line that created it, space-joined (restores its tree path and id). */
  signature: string;
  overflow: boolean;
  /** Creation order across restarts (restore re-inserts templates in this order). */
  createdSeq: bigint;
  /** Version: the newest wins. */
  updatedAtMs: number;
}

function templateLine(r: TemplateRow): string {
  // Spliced in unquoted, so it must be digits only (ids come from the miner's xxh3 decimal).
  if (!U64_DECIMAL.test(r.templateId)) throw new PermanentError('templateId must be an unsigned 64-bit decimal string');
  return (
    `[${r.templateId},${s(r.service)},${s(r.template)},${Math.max(0, Math.floor(r.count))},${r.firstSeenNs},${r.lastSeenNs},` +
    `${Math.min(255, Math.max(0, r.maxSeverity | 0))},${s(r.sample)},${r.maskingVersion},${s(r.signature)},${r.overflow},` +
    `${r.createdSeq},${Math.floor(r.updatedAtMs)}]\n`
  );
}

/** Writes a new version of each template in one insert. */
export async function upsertTemplates(store: Store, rows: readonly TemplateRow[]): Promise<void> {
  if (rows.length === 0) return;
  await store.insertRaw('templates', TEMPLATE_COLUMNS, encodeLines(rows, templateLine));
}

interface StoredTemplate {
  template_id: string;
  service: string;
  template: string;
  count: string;
  first_seen_ns: string;
  last_seen_ns: string;
  max_severity: number;
  sample: string;
  masking_version: number;
  signature: string;
  overflow: boolean;
  created_seq: string;
  updated_at_ms: string;
}

/** The newest version of every template within its lifetime, in creation order. */
export async function readAllTemplates(store: Store, nowMs: number): Promise<TemplateRow[]> {
  const rows = await store.query<StoredTemplate>(
    `SELECT toString(template_id) AS template_id, service, template, count, first_seen_ns, last_seen_ns, max_severity, sample,
       masking_version, signature, overflow, created_seq, updated_at_ms
     FROM (
       SELECT * FROM templates WHERE last_seen_ns >= {oldest_ns:Int64}
       ORDER BY updated_at_ms DESC
       LIMIT 1 BY service, template_id
     )
     ORDER BY created_seq, first_seen_ns, template_id`,
    { oldest_ns: oldestAllowedNs('templates', nowMs) },
  );
  return rows.map((r) => ({
    templateId: r.template_id,
    service: r.service,
    template: r.template,
    count: Number(r.count),
    firstSeenNs: BigInt(r.first_seen_ns),
    lastSeenNs: BigInt(r.last_seen_ns),
    maxSeverity: Number(r.max_severity),
    sample: r.sample,
    maskingVersion: Number(r.masking_version),
    signature: r.signature,
    overflow: Boolean(r.overflow),
    createdSeq: BigInt(r.created_seq),
    updatedAtMs: Number(r.updated_at_ms),
  }));
}
