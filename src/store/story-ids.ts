import type { QueryOptions, Store } from '../model/store.js';
import { oldestAllowedNs } from './lifetimes.js';

/** The story id of a trace (equal to the trace id) when a story within its lifetime exists, else null. */
export async function storyIdOfTrace(store: Store, traceId: string, nowMs: number, options: QueryOptions = {}): Promise<string | null> {
  const rows = await store.query<{ story_id: string }>(
    `SELECT story_id FROM stories WHERE story_id = {traceId:String} AND ts_ns >= {oldestNs:Int64} LIMIT 1`,
    { traceId, oldestNs: oldestAllowedNs('stories', nowMs) },
    options,
  );
  return rows.length > 0 ? rows[0].story_id : null;
}
