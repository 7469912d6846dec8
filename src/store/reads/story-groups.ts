/** Story groups (no table: a group is the stories sharing a fingerprint) and a group's examples. */

import type { QueryOptions, Store } from '../../model/store.js';
import { latestStoriesSql, type StoryFilter } from './latest-stories.js';

/** The contract's Story group. */
export interface StoryGroup {
  fingerprint: string;
  kind: 'error' | 'slow';
  summary: string;
  rc_service: string;
  rc_span_name: string;
  endpoint_service: string;
  endpoint_name: string;
  stories: number;
  first_seen_ns: bigint;
  last_seen_ns: bigint;
  sample_story_id: string;
  bucket_secs: number;
  buckets: [number, number][];
}

export interface GroupExample {
  story_id: string;
  ts_ns: bigint;
  trace_id: string;
  duration_ns: bigint;
  summary: string;
}

interface GroupCountRow {
  fingerprint: string;
  stories: string;
  first_seen_ns: string;
  last_seen_ns: string;
  sample_story_id: string;
  buckets: [string, string][];
}

/** The newest version of a group's sample story: what a group shows of it. */
export interface SampleRow {
  story_id: string;
  kind: 'error' | 'slow';
  summary: string;
  rc_service: string;
  rc_span_name: string;
  /** The root-cause span's kind, from the story's JSON. */
  rc_span_kind: string;
  endpoint_service: string;
  endpoint_name: string;
}

/**
 * Groups with stories in the filter's range, most stories first (then most recent), at most
 * `limit`; per-bucket counts on the epoch grid of `bucketSecs`, empty buckets left out.
 */
export async function readStoryGroups(store: Store, filter: StoryFilter, bucketSecs: number, limit: number, options: QueryOptions): Promise<StoryGroup[]> {
  const latest = latestStoriesSql(filter);
  // Counted per (group, bucket) first, then folded per group: one pass gives totals, first and
  // last story, the newest story and the bucket series together.
  const counts = await store.query<GroupCountRow>(
    `SELECT toString(fp) AS fingerprint, sum(n) AS stories, min(first_ns) AS first_seen_ns, max(last_ns) AS last_seen_ns,
       argMax(sample_id, last_ns) AS sample_story_id, arraySort(groupArray((bucket, n))) AS buckets
     FROM (
       SELECT fp, intDiv(ts, {bucket_ns:Int64}) * {bucket_secs:Int64} AS bucket, count() AS n,
         min(ts) AS first_ns, max(ts) AS last_ns, argMax(story_id, ts) AS sample_id
       FROM (${latest.sql})
       GROUP BY fp, bucket
     )
     GROUP BY fp
     ORDER BY stories DESC, last_seen_ns DESC, fp
     LIMIT {limit:UInt32}`,
    { ...latest.params, bucket_ns: BigInt(bucketSecs) * 1_000_000_000n, bucket_secs: bucketSecs, limit },
    options,
  );
  if (counts.length === 0) return [];
  const samples = await readSamples(store, counts, filter, options);
  const groups: StoryGroup[] = [];
  for (const row of counts) {
    const sample = samples.get(row.sample_story_id);
    // The sample was read in the same range a moment ago; only a TTL drop in between loses it.
    if (sample === undefined) continue;
    groups.push({
      fingerprint: row.fingerprint,
      kind: sample.kind,
      summary: sample.summary,
      rc_service: sample.rc_service,
      rc_span_name: sample.rc_span_name,
      endpoint_service: sample.endpoint_service,
      endpoint_name: sample.endpoint_name,
      stories: Number(row.stories),
      first_seen_ns: BigInt(row.first_seen_ns),
      last_seen_ns: BigInt(row.last_seen_ns),
      sample_story_id: row.sample_story_id,
      bucket_secs: bucketSecs,
      buckets: row.buckets.map(([bucket, n]) => [Number(bucket), Number(n)]),
    });
  }
  return groups;
}

/** The newest version of each group's sample story, read by sort key (fingerprint) and story id. */
async function readSamples(store: Store, counts: GroupCountRow[], filter: StoryFilter, options: QueryOptions): Promise<Map<string, SampleRow>> {
  return readSampleStories(
    store,
    counts.map((row) => ({ fingerprint: row.fingerprint, storyId: row.sample_story_id })),
    filter,
    options,
  );
}

/** The newest version of the given stories of the given groups in the filter's range, by story id. */
export async function readSampleStories(
  store: Store,
  samples: readonly { fingerprint: string; storyId: string }[],
  range: { fromNs: bigint; toNs: bigint },
  options: QueryOptions,
): Promise<Map<string, SampleRow>> {
  const rows = await store.query<SampleRow>(
    `SELECT story_id, kind, summary, rc_service, rc_span_name, JSONExtractString(story, 'root_cause', 'span_kind') AS rc_span_kind,
       endpoint_service, endpoint_name
     FROM stories
     WHERE fingerprint IN {fingerprints:Array(UInt64)} AND story_id IN {story_ids:Array(String)}
       AND ts_ns >= {from_ns:Int64} AND ts_ns < {to_ns:Int64}
     ORDER BY written_at_ms DESC
     LIMIT 1 BY story_id`,
    {
      fingerprints: samples.map((sample) => BigInt(sample.fingerprint)),
      story_ids: samples.map((sample) => sample.storyId),
      from_ns: range.fromNs,
      to_ns: range.toNs,
    },
    options,
  );
  return new Map(rows.map((row) => [row.story_id, row]));
}

/** A group's newest stories in the range (at most `limit`), newest first. */
export async function readGroupExamples(
  store: Store,
  filter: StoryFilter & { fingerprint: string },
  limit: number,
  options: QueryOptions,
): Promise<GroupExample[]> {
  const latest = latestStoriesSql(filter);
  const newest = await store.query<{ story_id: string; ts: string; dur: string }>(
    `SELECT story_id, ts, dur FROM (${latest.sql}) ORDER BY ts DESC, story_id DESC LIMIT {limit:UInt32}`,
    { ...latest.params, limit },
    options,
  );
  if (newest.length === 0) return [];
  // Summaries only for the chosen few, by sort key: a large group's other stories stay unread.
  const summaries = await store.query<{ story_id: string; summary: string }>(
    `SELECT story_id, summary
     FROM stories
     WHERE fingerprint = {fingerprint:UInt64} AND story_id IN {story_ids:Array(String)}
       AND ts_ns >= {from_ns:Int64} AND ts_ns < {to_ns:Int64}
     ORDER BY written_at_ms DESC
     LIMIT 1 BY story_id`,
    { fingerprint: filter.fingerprint, story_ids: newest.map((row) => row.story_id), from_ns: filter.fromNs, to_ns: filter.toNs },
    options,
  );
  const summaryOf = new Map(summaries.map((row) => [row.story_id, row.summary]));
  return newest.map((row) => ({
    story_id: row.story_id,
    ts_ns: BigInt(row.ts),
    trace_id: row.story_id,
    duration_ns: BigInt(row.dur),
    summary: summaryOf.get(row.story_id) ?? '',
  }));
}
