/** Story rows written by the assembler; the API reads the `story` JSON back as is. */

import type { Store } from '../model/store.js';
import type { Story } from '../analysis/types.js';
import { stringifyJson } from '../util/json.js';
import { PermanentError } from '../util/retry.js';

const STORY_COLUMNS = [
  'story_id',
  'fingerprint',
  'kind',
  'ts_ns',
  'duration_ns',
  'endpoint_service',
  'endpoint_name',
  'rc_service',
  'rc_span_name',
  'summary',
  'story',
  'written_at_ms',
] as const;

const U64_DECIMAL = /^\d{1,20}$/;
const s = JSON.stringify;

export interface StoryRow {
  story: Story;
  /** The version: a replayed trace's newer write wins (ReplacingMergeTree(written_at_ms)). */
  writtenAtMs: number;
}

/** One JSONCompactEachRow line; the fingerprint and ns as bare integers so they stay exact. */
function storyLine({ story, writtenAtMs }: StoryRow): string {
  // The fingerprint is spliced in unquoted, so it must be digits only (analysis's u64 decimal).
  if (!U64_DECIMAL.test(story.fingerprint) || BigInt(story.fingerprint) >= 1n << 64n) {
    throw new PermanentError('fingerprint must be an unsigned 64-bit decimal string');
  }
  return (
    `[${s(story.story_id)},${story.fingerprint},${s(story.kind)},${story.ts_ns},${story.duration_ns},` +
    `${s(story.endpoint_service)},${s(story.endpoint_name)},${s(story.root_cause.service)},` +
    `${s(story.root_cause.span_name)},${s(story.summary)},${s(stringifyJson(story))},${Math.floor(writtenAtMs)}]\n`
  );
}

/** Stores stories in one insert; `story` holds stringifyJson(story), the API shape with exact integers. */
export async function insertStories(store: Store, rows: readonly StoryRow[]): Promise<void> {
  if (rows.length === 0) return;
  let payload = '';
  for (const row of rows) payload += storyLine(row);
  await store.insertRaw('stories', STORY_COLUMNS, payload);
}
