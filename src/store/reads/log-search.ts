/**
 * Raw log search for GET /api/v1/logs/search and /api/v1/logs/series: the same filter over the logs
 * table, newest first in pages, or counted per grid bucket and severity. Every log is counted and
 * listed once (replays share a log id and a timestamp; reads dedupe by log id).
 */

import type { PlainAttrPair } from '../../model/attr-marks.js';
import type { QueryOptions, QueryParams, Store } from '../../model/store.js';
import { withoutMarks } from '../../model/attr-marks.js';
import { attrsFromJson } from '../attrs-json.js';
import { distinctRanges, logPart, partsAdded, reachesOutside, type LogPart, type StampRange } from './log-part-coverage.js';
import { BODY_WORDS_EXPRESSION, wordsThroughIndex } from './log-words-index.js';

export interface LogSearchFilter {
  /** Window [fromNs, toNs). */
  fromNs: bigint;
  toNs: bigint;
  service?: string;
  /** Lowest severity number listed. */
  minSeverity?: number;
  /** Lower-cased words, each a substring the body must contain (any case). */
  words: readonly string[];
  templateId?: string;
  traceId?: string;
}

/** The last row of a page: the next page starts strictly below it in (ts_ns, log_id) order. */
export interface LogCursor {
  tsNs: bigint;
  logId: string;
}

export interface LogSearchRow {
  log_id: string;
  ts_ns: bigint;
  service_name: string;
  severity_number: number;
  severity_text: string;
  body: string;
  trace_id: string;
  span_id: string;
  template_id: string | null;
  template: string | null;
  attrs: PlainAttrPair[];
  resource: PlainAttrPair[];
}

/** OpenTelemetry severity ranges: 1-4 trace, 5-8 debug, ... 21-24 fatal; 0 is unspecified. */
export const SEVERITY_LEVELS = ['unspecified', 'trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
export type SeverityLevel = (typeof SEVERITY_LEVELS)[number];

/** Rows read per page row, so replayed twins (dropped here) rarely shorten a page. */
const REPLAY_HEADROOM = 2;

/** The widening slices a search reads, as shares [numerator, denominator] of its time range. */
const SLICE_SHARES: readonly [number, number][] = [
  [1, 64],
  [1, 8],
  [1, 1],
];

/** `%`, `_` and `\` are LIKE's own characters; a word matches them literally. */
function likeContains(word: string): string {
  return `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Words of printable ASCII: their case-insensitive match needs no Unicode lowering (see wordSql). */
const ASCII_WORD = /^[\x20-\x7e]+$/;

/**
 * The condition a body meets when it contains `word` in any case.
 * - Through the text index (`viaIndex`, see log-words-index.ts) a word of letters is matched on the
 *   indexed expression: the engine scans the index's dictionary for words containing it and takes
 *   their rows, without reading a body. Body and expression hold the word in the same rows: it has
 *   no digit (the only characters the expression replaces) and `lower` folds ASCII case as
 *   positionCaseInsensitive does.
 * - Otherwise lowerUTF8(body) LIKE is the expression of the n-gram index (migrations 4 and 6), so it
 *   always stays for granule skipping. An ASCII word is matched by positionCaseInsensitive, which
 *   folds ASCII case while it searches (lowering every body before LIKE cost more than a sixth of a
 *   full scan). Any body it matches also matches the lowered LIKE (lowering keeps ASCII letters
 *   ASCII), so that LIKE is needed only to pick granules: indexHint gives it to the index and never
 *   evaluates it per row, which had cost ~150 ms of a 24 h series over 10M logs for a common word.
 */
function wordSql(word: string, i: number, params: QueryParams, viaIndex: boolean): { cheap: string; indexed: string } {
  params[`word_${i}`] = likeContains(word);
  if (viaIndex) {
    const matched = `${BODY_WORDS_EXPRESSION} LIKE {word_${i}:String}`;
    return { cheap: matched, indexed: matched };
  }
  const indexed = `lowerUTF8(body) LIKE {word_${i}:String}`;
  if (!ASCII_WORD.test(word)) return { cheap: indexed, indexed };
  params[`needle_${i}`] = word;
  return { cheap: `positionCaseInsensitive(body, {needle_${i}:String}) > 0`, indexed: `indexHint(${indexed})` };
}

/**
 * Whether a filter selects a few granules before the text: a template (its log ids) or a trace (its
 * id), each through its bloom filter (migrations 4 and 13). There the words are matched on those
 * rows alone, with the conditions that need no text index. A service is not such a filter: the table
 * is sorted by service (migration 13), so its rows are one key range of every part, read with the
 * words first and through the text index as without a service.
 */
function narrowed(filter: LogSearchFilter): boolean {
  return filter.templateId !== undefined || filter.traceId !== undefined;
}

interface FilterSql {
  /** Every condition, ANDed. */
  where: string;
  /** Only the text words' first conditions (empty without words), for a PREWHERE. */
  words: string;
  /** Every other condition, the index's own for ASCII words included. */
  rest: string;
  params: QueryParams;
}

/** The conditions shared by search and series; the words in `viaIndex` are matched through the text index. */
function filterSql(filter: LogSearchFilter, viaIndex: ReadonlySet<string>): FilterSql {
  const rest = ['ts_ns >= {from_ns:Int64}', 'ts_ns < {to_ns:Int64}'];
  const params: QueryParams = { from_ns: filter.fromNs, to_ns: filter.toNs };
  if (filter.service !== undefined) {
    rest.push('service_name = {service:String}');
    params.service = filter.service;
  }
  if (filter.minSeverity !== undefined) {
    rest.push('severity_number >= {min_severity:UInt8}');
    params.min_severity = filter.minSeverity;
  }
  if (filter.traceId !== undefined) {
    rest.push('trace_id = {trace_id:String}');
    params.trace_id = filter.traceId;
  }
  const words: string[] = [];
  filter.words.forEach((word, i) => {
    const { cheap, indexed } = wordSql(word, i, params, viaIndex.has(word));
    words.push(cheap);
    if (indexed !== cheap) rest.push(indexed);
  });
  if (filter.templateId !== undefined) {
    // A template's hits carry their log's service: naming those services lets the table, sorted by
    // service (migration 13), read only their key ranges; the log ids then select the exact rows.
    rest.push(`service_name IN (
      SELECT service FROM template_hits
      WHERE template_id = {template_id:UInt64} AND ts_ns >= {from_ns:Int64} AND ts_ns < {to_ns:Int64})`);
    rest.push(`log_id IN (
      SELECT log_id FROM template_hits
      WHERE template_id = {template_id:UInt64} AND ts_ns >= {from_ns:Int64} AND ts_ns < {to_ns:Int64})`);
    params.template_id = filter.templateId;
  }
  return { where: [...words, ...rest].join(' AND '), words: words.join(' AND '), rest: rest.join(' AND '), params };
}

interface StoredRow {
  lid: string;
  ts: string;
  service_name: string;
  severity_number: number;
  severity_text: string;
  body: string;
  trace_id: string;
  span_id: string;
  attrs: string;
  resource: string;
}

/**
 * Up to `limit` logs newest first (ties by log id, descending), strictly below `cursor` when given,
 * and whether more follow. Each row carries its mined template when the logminer has seen it.
 */
export async function searchLogs(
  store: Store,
  filter: LogSearchFilter,
  cursor: LogCursor | undefined,
  limit: number,
  options: QueryOptions,
): Promise<{ rows: LogSearchRow[]; more: boolean }> {
  if (filter.toNs <= filter.fromNs) return { rows: [], more: false };
  // Words never go through the text index here: under the newest-first top-N read the engine skips
  // granules with it but computes its expression for every row read, dearer than the bodies' scan.
  const { where, params } = filterSql(filter, new Set());
  let after = '';
  if (cursor !== undefined) {
    after = ' AND ts_ns <= {cursor_ts:Int64} AND (ts_ns < {cursor_ts:Int64} OR log_id < {cursor_id:UInt64})';
    params.cursor_ts = cursor.tsNs;
    params.cursor_id = cursor.logId;
  }
  const fetchRows = (limit + 1) * REPLAY_HEADROOM;
  // Newest first in widening slices: most pages fill from the newest part of the range, which
  // recent (small, not yet merged) parts and the time indexes answer without reading the rest.
  const topNs = cursor !== undefined && cursor.tsNs + 1n < filter.toNs ? cursor.tsNs + 1n : filter.toNs;
  const spanNs = topNs - filter.fromNs;
  const stored: StoredRow[] = [];
  let sliceToNs = topNs;
  for (const share of SLICE_SHARES) {
    if (sliceToNs <= filter.fromNs || stored.length >= fetchRows) break;
    const reach = (spanNs * BigInt(share[0])) / BigInt(share[1]);
    const sliceFromNs = topNs - reach > filter.fromNs ? topNs - reach : filter.fromNs;
    if (sliceFromNs >= sliceToNs) continue;
    const slice = await store.query<StoredRow>(
      `SELECT toString(log_id) AS lid, ts_ns AS ts, service_name, severity_number, severity_text, body, trace_id, span_id, attrs, resource
       FROM logs
       WHERE ${where}${after} AND ts_ns >= {slice_from_ns:Int64} AND ts_ns < {slice_to_ns:Int64}
       ORDER BY ts_ns DESC, log_id DESC
       LIMIT {rows:UInt32}`,
      { ...params, slice_from_ns: sliceFromNs, slice_to_ns: sliceToNs, rows: fetchRows - stored.length },
      options,
    );
    stored.push(...slice);
    sliceToNs = sliceFromNs;
  }
  // A replay shares its twin's stamp and id, so twins are adjacent here; dropping them in place
  // keeps the engine's top-N sort (a LIMIT BY would sort every matching row). A page cut short by
  // many twins is still exact: its cursor is its last row, and `more` holds while rows were cut off.
  const distinct: StoredRow[] = [];
  for (const row of stored) {
    const previous = distinct[distinct.length - 1];
    if (previous !== undefined && previous.lid === row.lid && previous.ts === row.ts) continue;
    distinct.push(row);
  }
  const page = distinct.slice(0, limit);
  const templates = await templatesOfLogs(store, page, options);
  const rows = page.map((r): LogSearchRow => {
    const template = templates.get(r.lid);
    return {
      log_id: r.lid,
      ts_ns: BigInt(r.ts),
      service_name: r.service_name,
      severity_number: Number(r.severity_number),
      severity_text: r.severity_text,
      body: r.body,
      trace_id: r.trace_id,
      span_id: r.span_id,
      template_id: template?.id ?? null,
      template: template?.text ?? null,
      // svc's API answers plain pairs (../../model/attr-marks.ts).
      attrs: withoutMarks(attrsFromJson(r.attrs)),
      resource: withoutMarks(attrsFromJson(r.resource)),
    };
  });
  return { rows, more: distinct.length > limit || stored.length === fetchRows };
}

/** The mined template (id and newest text) of each listed log the logminer has seen. */
async function templatesOfLogs(store: Store, rows: readonly StoredRow[], options: QueryOptions): Promise<Map<string, { id: string; text: string | null }>> {
  if (rows.length === 0) return new Map();
  let minNs = BigInt(rows[0].ts);
  let maxNs = minNs;
  for (const r of rows) {
    const ts = BigInt(r.ts);
    if (ts < minNs) minNs = ts;
    if (ts > maxNs) maxNs = ts;
  }
  const found = await store.query<{ lid: string; tid: string; text: string; known: number }>(
    `SELECT h.lid AS lid, toString(h.tid) AS tid, t.text AS text, t.known AS known
     FROM (
       SELECT toString(log_id) AS lid, any(template_id) AS tid FROM template_hits
       WHERE log_id IN {ids:Array(UInt64)} AND service IN {services:Array(String)} AND ts_ns >= {min_ns:Int64} AND ts_ns <= {max_ns:Int64}
       GROUP BY log_id
     ) AS h
     LEFT JOIN (
       SELECT template_id, argMax(template, updated_at_ms) AS text, 1 AS known FROM templates
       WHERE template_id IN (
         SELECT template_id FROM template_hits
         WHERE log_id IN {ids:Array(UInt64)} AND service IN {services:Array(String)} AND ts_ns >= {min_ns:Int64} AND ts_ns <= {max_ns:Int64})
       GROUP BY template_id
     ) AS t ON t.template_id = h.tid`,
    { ids: rows.map((r) => BigInt(r.lid)), services: [...new Set(rows.map((r) => r.service_name))], min_ns: minNs, max_ns: maxNs },
    options,
  );
  return new Map(found.map((f) => [f.lid, { id: f.tid, text: Number(f.known) === 1 ? f.text : null }]));
}

/** Counts taken with fresh part ranges before every row is counted by distinct id instead. */
const COVERAGE_ATTEMPTS = 2;

/** The logs table's parts and the exact time range each holds (read from the parts' minmax indexes). */
async function readLogParts(store: Store, options: QueryOptions): Promise<LogPart[] | null> {
  const found = await store.query<{ name: string; min_ts: string; max_ts: string }>(
    'SELECT _part AS name, min(ts_ns) AS min_ts, max(ts_ns) AS max_ts FROM logs GROUP BY _part',
    undefined,
    options,
  );
  const parts: LogPart[] = [];
  for (const f of found) {
    const part = logPart(f.name, BigInt(f.min_ts), BigInt(f.max_ts));
    // A part name of another form: every row is then counted by distinct id.
    if (part === null) return null;
    parts.push(part);
  }
  return parts;
}

/**
 * Distinct logs per grid bucket (Unix seconds) and severity level over the filter's window.
 *
 * Replayed twins share a log id, a sort key, a stamp and every other column, and never sit twice in
 * one part (log-part-coverage.ts). So rows stamped where only one part's time range reaches are
 * counted with count(), and only rows where parts' ranges overlap (and the newest minutes) by
 * distinct log id: on 10M logs over 24 h in parts of separate hours, as merges of the writer's
 * time-ordered batches make them, this took the unfiltered series from ~530 ms (FINAL, merging
 * every row's sort key) to ~165 ms and spares a text series the distinct count of its matches. The
 * parts are read again after the count: a part written meanwhile that reaches stamps counted
 * plainly could hold twins of those rows, and then the count is taken again with the new ranges (at
 * last with distinct ids everywhere).
 */
export async function countLogs(
  store: Store,
  filter: LogSearchFilter,
  bucketSecs: number,
  options: QueryOptions,
): Promise<{ bucket: number; level: SeverityLevel; n: number }[]> {
  if (filter.toNs <= filter.fromNs) return [];
  const everything: StampRange[] = [{ fromNs: filter.fromNs, toNs: filter.toNs - 1n }];
  let parts = await readLogParts(store, options);
  const viaIndex = narrowed(filter) ? new Set<string>() : await wordsThroughIndex(store, filter.words, partsInWindow(parts, filter), options);
  for (let attempt = 0; ; attempt++) {
    const distinct = parts !== null && attempt < COVERAGE_ATTEMPTS ? distinctRanges(parts, filter.fromNs, filter.toNs) : everything;
    const counts = await countWithRanges(store, filter, bucketSecs, distinct, viaIndex, options);
    if (distinct === everything || parts === null) return counts;
    const after = await readLogParts(store, options);
    if (after !== null && !reachesOutside(partsAdded(parts, after), distinct, filter.fromNs, filter.toNs)) return counts;
    parts = after;
  }
}

/** Names of the parts holding stamps in the filter's window; null (every part) when they are not known. */
function partsInWindow(parts: readonly LogPart[] | null, filter: LogSearchFilter): string[] | null {
  return parts === null ? null : parts.filter((p) => p.maxTsNs >= filter.fromNs && p.minTsNs < filter.toNs).map((p) => p.name);
}

async function countWithRanges(
  store: Store,
  filter: LogSearchFilter,
  bucketSecs: number,
  distinct: readonly StampRange[],
  viaIndex: ReadonlySet<string>,
  options: QueryOptions,
): Promise<{ bucket: number; level: SeverityLevel; n: number }[]> {
  const { where, words, rest, params } = filterSql(filter, viaIndex);
  // Rows stamped outside the distinct ranges count as they are, the others by distinct log id.
  let n: string;
  const [only] = distinct;
  if (distinct.length === 0) {
    n = 'count()';
  } else if (distinct.length === 1 && only !== undefined && only.fromNs <= filter.fromNs && only.toNs >= filter.toNs - 1n) {
    n = 'uniqExact(log_id)';
  } else {
    const inRanges = distinct
      .map((range, i) => {
        params[`distinct_from_${i}`] = range.fromNs;
        params[`distinct_to_${i}`] = range.toNs;
        return `(ts_ns >= {distinct_from_${i}:Int64} AND ts_ns <= {distinct_to_${i}:Int64})`;
      })
      .join(' OR ');
    n = `countIf(NOT (${inRanges})) + uniqExactIf(log_id, ${inRanges})`;
  }
  // Text words without a template or trace read every body of the window (of the service's key
  // range with a service): their cheap conditions go first as PREWHERE, so only matching rows are
  // read further. A template or trace selects its few granules first (see narrowed).
  const from = !narrowed(filter) && words !== '' ? `logs PREWHERE ${words} WHERE ${rest}` : `logs WHERE ${where}`;
  // Grouped by severity number, levels summed here: the engine's multiIf per row cost ~150 ms of an
  // unfiltered 24 h series over 10M logs. Twins share their severity, so distinct counts add up.
  const rows = await store.query<{ bucket: string | number; severity: number; n: string | number }>(
    `SELECT intDiv(ts_ns, {bucket_ns:Int64}) * {bucket_secs:Int64} AS bucket, severity_number AS severity, ${n} AS n
     FROM ${from}
     GROUP BY bucket, severity`,
    { ...params, bucket_secs: bucketSecs, bucket_ns: BigInt(bucketSecs) * 1_000_000_000n },
    options,
  );
  const counts = new Map<string, { bucket: number; level: SeverityLevel; n: number }>();
  for (const r of rows) {
    const bucket = Number(r.bucket);
    const level = levelOfSeverity(Number(r.severity));
    const key = `${bucket} ${level}`;
    const seen = counts.get(key);
    if (seen === undefined) counts.set(key, { bucket, level, n: Number(r.n) });
    else seen.n += Number(r.n);
  }
  return [...counts.values()];
}

/** OpenTelemetry's level of a severity number: each level spans 4 numbers (1-4 trace ... 21-24 fatal), 0 is unspecified. */
function levelOfSeverity(severityNumber: number): SeverityLevel {
  return SEVERITY_LEVELS[Math.min(SEVERITY_LEVELS.length - 1, Math.ceil(severityNumber / 4))] ?? 'unspecified';
}
