/** Service-to-service calls per minute, summed by the table (SummingMergeTree). */

import type { Store } from '../model/store.js';
import { PermanentError } from '../util/retry.js';

const EDGE_COLUMNS = ['minute', 'parent', 'child', 'calls', 'errors', 'duration_ns_sum'] as const;

export interface ServiceEdgeRow {
  /** Start of the minute, Unix seconds (a multiple of 60). */
  minuteS: number;
  parent: string;
  child: string;
  calls: number;
  errors: number;
  /** Sum of the child spans' durations. */
  durationNsSum: bigint;
}

const s = JSON.stringify;

/** Stores edge rows in one insert; rows of one key add up in merges and in reads (sum()). */
export async function insertServiceEdges(store: Store, rows: readonly ServiceEdgeRow[]): Promise<void> {
  if (rows.length === 0) return;
  let payload = '';
  for (const r of rows) {
    if (!Number.isInteger(r.minuteS) || r.minuteS % 60 !== 0) throw new PermanentError('minuteS must be a whole minute in Unix seconds');
    payload += `[${r.minuteS},${s(r.parent)},${s(r.child)},${r.calls},${r.errors},${r.durationNsSum}]\n`;
  }
  await store.insertRaw('service_edges', EDGE_COLUMNS, payload);
}
