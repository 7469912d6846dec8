/** Single stories (the stored JSON) and story counts per kind and bucket. */

import type { QueryOptions, Store } from '../../model/store.js';
import { oldestAllowedNs } from '../lifetimes.js';
import { latestStoriesSql, type StoryFilter } from './latest-stories.js';

/**
 * The newest stored version of a story as its JSON text (already in the API shape, with exact
 * 64-bit integers), or null when absent or past the stories lifetime.
 */
export async function readStoryJson(store: Store, storyId: string, nowMs: number, options: QueryOptions): Promise<string | null> {
  const rows = await store.query<{ story: string }>(
    `SELECT story FROM stories
     WHERE story_id = {story_id:String} AND ts_ns >= {oldest_ns:Int64}
     ORDER BY written_at_ms DESC
     LIMIT 1`,
    { story_id: storyId, oldest_ns: oldestAllowedNs('stories', nowMs) },
    options,
  );
  return rows.length > 0 ? rows[0].story : null;
}

export interface StoryBucketCount {
  kind: 'error' | 'slow';
  /** Bucket start, Unix seconds on the epoch grid. */
  bucket: number;
  stories: number;
}

/** Stories per kind and grid bucket in the filter's range (non-empty buckets only). */
export async function readStoryCounts(store: Store, filter: StoryFilter, bucketSecs: number, options: QueryOptions): Promise<StoryBucketCount[]> {
  const latest = latestStoriesSql(filter);
  const rows = await store.query<{ kind: 'error' | 'slow'; bucket: string; n: string }>(
    `SELECT toString(k) AS kind, intDiv(ts, {bucket_ns:Int64}) * {bucket_secs:Int64} AS bucket, count() AS n
     FROM (${latest.sql})
     GROUP BY kind, bucket`,
    { ...latest.params, bucket_ns: BigInt(bucketSecs) * 1_000_000_000n, bucket_secs: bucketSecs },
    options,
  );
  return rows.map((row) => ({ kind: row.kind, bucket: Number(row.bucket), stories: Number(row.n) }));
}
