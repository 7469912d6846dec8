/**
 * Hits per template per Unix minute (kept 8 days): the logminer writes deltas, the engine sums
 * them. Read for spike baselines (including a day and a week back), service coverage and the
 * API's whole-minute bucket counts.
 */

import type { Store } from '../model/store.js';
import { encodeLines } from './compact-json.js';
import { PermanentError } from '../util/retry.js';

const MINUTE_COLUMNS = ['service', 'template_id', 'minute', 'hits'] as const;
const U64_DECIMAL = /^\d{1,20}$/;

export interface MinuteCountRow {
  service: string;
  templateId: string;
  /** Unix minute: floor(ts_ns / 60e9). */
  minute: number;
  hits: number;
}

function minuteLine(r: MinuteCountRow): string {
  if (!U64_DECIMAL.test(r.templateId)) throw new PermanentError('templateId must be an unsigned 64-bit decimal string');
  return `[${JSON.stringify(r.service)},${r.templateId},${r.minute},${r.hits}]\n`;
}

/** Adds hits per (template, minute); several rows for one key add up. */
export async function insertMinuteCounts(store: Store, rows: readonly MinuteCountRow[]): Promise<void> {
  if (rows.length === 0) return;
  await store.insertRaw('template_minutes', MINUTE_COLUMNS, encodeLines(rows, minuteLine));
}

/** Summed counts of the services' templates in minutes [fromMin, toMin). */
export async function readMinuteCounts(store: Store, services: readonly string[], fromMin: number, toMin: number): Promise<MinuteCountRow[]> {
  if (services.length === 0 || toMin <= fromMin) return [];
  const rows = await store.query<{ service: string; template_id: string; minute: number; hits: string }>(
    `SELECT service, toString(template_id) AS template_id, minute, sum(hits) AS hits
     FROM template_minutes
     WHERE service IN {services:Array(String)} AND minute >= {from_min:UInt32} AND minute < {to_min:UInt32}
     GROUP BY service, template_id, minute`,
    { services, from_min: Math.max(0, fromMin), to_min: Math.max(0, toMin) },
  );
  return rows.map((r) => ({ service: r.service, templateId: r.template_id, minute: Number(r.minute), hits: Number(r.hits) }));
}

/** Summed counts of some templates in minutes [fromMin, toMin). */
export async function readTemplateMinuteCounts(store: Store, templateIds: readonly string[], fromMin: number, toMin: number): Promise<MinuteCountRow[]> {
  if (templateIds.length === 0 || toMin <= fromMin) return [];
  const rows = await store.query<{ service: string; template_id: string; minute: number; hits: string }>(
    `SELECT service, toString(template_id) AS template_id, minute, sum(hits) AS hits
     FROM template_minutes
     WHERE template_id IN {ids:Array(UInt64)} AND minute >= {from_min:UInt32} AND minute < {to_min:UInt32}
     GROUP BY service, template_id, minute`,
    { ids: templateIds.map((id) => BigInt(id)), from_min: Math.max(0, fromMin), to_min: Math.max(0, toMin) },
  );
  return rows.map((r) => ({ service: r.service, templateId: r.template_id, minute: Number(r.minute), hits: Number(r.hits) }));
}

/** Minutes in [fromMin, toMin) in which each service logged at least one line. */
export async function readCoverage(store: Store, services: readonly string[], fromMin: number, toMin: number): Promise<Map<string, Set<number>>> {
  const out = new Map<string, Set<number>>();
  if (services.length === 0 || toMin <= fromMin) return out;
  const rows = await store.query<{ service: string; minute: number }>(
    `SELECT service, minute
     FROM template_minutes
     WHERE service IN {services:Array(String)} AND minute >= {from_min:UInt32} AND minute < {to_min:UInt32}
     GROUP BY service, minute
     HAVING sum(hits) > 0`,
    { services, from_min: Math.max(0, fromMin), to_min: Math.max(0, toMin) },
  );
  for (const r of rows) {
    let set = out.get(r.service);
    if (set === undefined) out.set(r.service, (set = new Set()));
    set.add(Number(r.minute));
  }
  return out;
}
