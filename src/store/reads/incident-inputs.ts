/**
 * What incident analysis reads: per-minute operation and call statistics, the story groups of the
 * window with their stories in the hour before, and template hits in both. All from pre-summed
 * tables (op_minutes, call_minutes, template_minutes) except the stories, deduped as every story read.
 */

import type { GroupCounts, IncidentInputs, TemplateCounts } from '../../analysis/incidents/types.js';
import type { QueryOptions, Store } from '../../model/store.js';
import { readCallMinutes, readOpMinutes } from '../call-minutes.js';
import { oldestAllowedNs } from '../lifetimes.js';
import { latestStoriesSql } from './latest-stories.js';
import { readSampleStories } from './story-groups.js';

/** Groups read per window: far more than are shown, so that the trend of every shown one is known. */
const MAX_GROUPS_READ = 1_000;
const NS_PER_S = 1_000_000_000n;

export interface IncidentRange {
  baselineFromS: number;
  windowFromS: number;
  windowToS: number;
}

/** The clock the stories' lifetime is judged against: no expired story is counted. */
export interface IncidentReadOptions extends QueryOptions {
  nowMs: number;
}

export async function readIncidentInputs(store: Store, range: IncidentRange, options: IncidentReadOptions): Promise<Omit<IncidentInputs, 'service'>> {
  const [ops, calls, groups, templates] = await Promise.all([
    readOpMinutes(store, range.baselineFromS, range.windowToS, options),
    readCallMinutes(store, range.baselineFromS, range.windowToS, options),
    readGroupCounts(store, range, options),
    readTemplateCounts(store, range, options),
  ]);
  return { ...range, ops, calls, groups, templates };
}

interface GroupCountRow {
  fingerprint: string;
  window_stories: string;
  baseline_stories: string;
  sample_story_id: string;
}

async function readGroupCounts(store: Store, range: IncidentRange, options: IncidentReadOptions): Promise<GroupCounts[]> {
  const oldestNs = oldestAllowedNs('stories', options.nowMs);
  const baselineFromNs = BigInt(range.baselineFromS) * NS_PER_S;
  const fromNs = baselineFromNs > oldestNs ? baselineFromNs : oldestNs;
  const toNs = BigInt(range.windowToS) * NS_PER_S;
  const latest = latestStoriesSql({ fromNs, toNs });
  const counts = await store.query<GroupCountRow>(
    `SELECT toString(fp) AS fingerprint, countIf(ts >= {window_from_ns:Int64}) AS window_stories,
       countIf(ts < {window_from_ns:Int64}) AS baseline_stories, argMax(story_id, ts) AS sample_story_id
     FROM (${latest.sql})
     GROUP BY fp
     HAVING window_stories > 0
     ORDER BY window_stories DESC, fp
     LIMIT {limit:UInt32}`,
    { ...latest.params, window_from_ns: BigInt(range.windowFromS) * NS_PER_S, limit: MAX_GROUPS_READ },
    options,
  );
  if (counts.length === 0) return [];
  const byId = await readSampleStories(
    store,
    counts.map((c) => ({ fingerprint: c.fingerprint, storyId: c.sample_story_id })),
    { fromNs, toNs },
    options,
  );
  const groups: GroupCounts[] = [];
  for (const c of counts) {
    const sample = byId.get(c.sample_story_id);
    if (sample === undefined) continue;
    groups.push({
      fingerprint: c.fingerprint,
      kind: sample.kind,
      summary: sample.summary,
      rc_service: sample.rc_service,
      rc_span_name: sample.rc_span_name,
      rc_span_kind: sample.rc_span_kind,
      endpoint_service: sample.endpoint_service,
      endpoint_name: sample.endpoint_name,
      sample_story_id: c.sample_story_id,
      windowStories: Number(c.window_stories),
      baselineStories: Number(c.baseline_stories),
    });
  }
  return groups;
}

interface TemplateCountRow {
  service: string;
  template_id: string;
  baseline_hits: string;
  window_hits: string;
  baseline_squares: string;
}

/** template_minutes counts Unix minutes (not seconds). */
const minuteOfS = (s: number): number => Math.max(0, Math.floor(s / 60));

async function readTemplateCounts(store: Store, range: IncidentRange, options: QueryOptions): Promise<TemplateCounts[]> {
  const rows = await store.query<TemplateCountRow>(
    `SELECT service, toString(template_id) AS template_id,
       sumIf(h, minute < {window_min:UInt32}) AS baseline_hits, sumIf(h, minute >= {window_min:UInt32}) AS window_hits,
       sumIf(h * h, minute < {window_min:UInt32}) AS baseline_squares
     FROM (
       SELECT service, template_id, minute, sum(hits) AS h
       FROM template_minutes
       WHERE minute >= {from_min:UInt32} AND minute < {to_min:UInt32}
       GROUP BY service, template_id, minute
     )
     GROUP BY service, template_id`,
    { from_min: minuteOfS(range.baselineFromS), window_min: minuteOfS(range.windowFromS), to_min: minuteOfS(range.windowToS) },
    options,
  );
  if (rows.length === 0) return [];
  const texts = await store.query<{ template_id: string; template: string; sev: number | string }>(
    `SELECT toString(template_id) AS template_id, argMax(template, updated_at_ms) AS template, argMax(max_severity, updated_at_ms) AS sev
     FROM templates
     WHERE template_id IN {ids:Array(UInt64)}
     GROUP BY template_id`,
    { ids: rows.map((r) => BigInt(r.template_id)) },
    options,
  );
  const textOf = new Map(texts.map((t) => [t.template_id, t] as const));
  return rows.map((r) => {
    const text = textOf.get(r.template_id);
    return {
      service: r.service,
      templateId: r.template_id,
      template: text?.template ?? '',
      maxSeverity: Number(text?.sev ?? 0),
      baselineHits: Number(r.baseline_hits),
      windowHits: Number(r.window_hits),
      baselineSquares: Number(r.baseline_squares),
    };
  });
}
