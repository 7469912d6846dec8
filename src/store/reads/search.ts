/** The search box: services, templates and story groups matching a text, case-insensitively. */

import type { QueryOptions, Store } from '../../model/store.js';

/** Items per list: a search answers with a short pick, not a listing. */
export const SEARCH_LIMIT = 20;

export interface SearchRange {
  /** Services count from this minute (Unix seconds): the service list's 24 h. */
  servicesFromSecs: number;
  /** Lifetime bounds: templates by last seen, stories by start. */
  templatesOldestNs: bigint;
  storiesOldestNs: bigint;
}

/** Service names with spans in the range that contain `q`. */
export async function searchServices(store: Store, q: string, range: SearchRange, options: QueryOptions): Promise<string[]> {
  const rows = await store.query<{ service_name: string }>(
    `SELECT service_name FROM span_services
     WHERE minute >= toDateTime({from_s:Int64}) AND positionCaseInsensitiveUTF8(service_name, {q:String}) > 0
     GROUP BY service_name
     ORDER BY service_name
     LIMIT {limit:UInt32}`,
    { from_s: range.servicesFromSecs, q, limit: SEARCH_LIMIT },
    options,
  );
  return rows.map((row) => row.service_name);
}

export interface TemplateMatch {
  template_id: string;
  service: string;
  template: string;
}

/** Templates (newest version) whose text contains `q` or whose id is `q`, most hits first. */
export async function searchTemplates(store: Store, q: string, range: SearchRange, options: QueryOptions): Promise<TemplateMatch[]> {
  return store.query<TemplateMatch>(
    `SELECT toString(id) AS template_id, service, text AS template FROM (
       SELECT template_id AS id, service, argMax(template, updated_at_ms) AS text, argMax(count, updated_at_ms) AS hits
       FROM templates
       WHERE last_seen_ns >= {oldest_ns:Int64}
       GROUP BY service, template_id
     )
     WHERE positionCaseInsensitiveUTF8(text, {q:String}) > 0 OR toString(id) = {q:String}
     ORDER BY hits DESC, id
     LIMIT {limit:UInt32}`,
    { oldest_ns: range.templatesOldestNs, q, limit: SEARCH_LIMIT },
    options,
  );
}

export interface GroupMatch {
  fingerprint: string;
  kind: 'error' | 'slow';
  summary: string;
  stories: number;
}

/**
 * Story groups with a story whose summary, endpoint or root cause contains `q`, or whose
 * fingerprint is `q`; most stories first. Summary is the newest story's.
 */
export async function searchGroups(store: Store, q: string, range: SearchRange, options: QueryOptions): Promise<GroupMatch[]> {
  const rows = await store.query<{ fp_text: string; newest_kind: 'error' | 'slow'; newest_summary: string; stories: string }>(
    `SELECT toString(fingerprint) AS fp_text, toString(argMax(kind, ts_ns)) AS newest_kind, argMax(summary, ts_ns) AS newest_summary,
       uniqExact(story_id) AS stories
     FROM stories
     WHERE ts_ns >= {oldest_ns:Int64}
     GROUP BY fingerprint
     HAVING fp_text = {q:String} OR countIf(
       positionCaseInsensitiveUTF8(summary, {q:String}) > 0 OR positionCaseInsensitiveUTF8(endpoint_name, {q:String}) > 0
       OR positionCaseInsensitiveUTF8(endpoint_service, {q:String}) > 0 OR positionCaseInsensitiveUTF8(rc_service, {q:String}) > 0
       OR positionCaseInsensitiveUTF8(rc_span_name, {q:String}) > 0) > 0
     ORDER BY stories DESC, fp_text
     LIMIT {limit:UInt32}`,
    { oldest_ns: range.storiesOldestNs, q, limit: SEARCH_LIMIT },
    options,
  );
  return rows.map((row) => ({
    fingerprint: row.fp_text,
    kind: row.newest_kind,
    summary: row.newest_summary,
    stories: Number(row.stories),
  }));
}
