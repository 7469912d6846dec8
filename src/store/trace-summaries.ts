/** Trace summary rows: one per analysed trace piece, behind trace search and endpoint baselines. */

import type { Store } from '../model/store.js';
import type { OpDuration, StoryKind, TraceSummary } from '../analysis/types.js';

const SUMMARY_COLUMNS = [
  'trace_id',
  'ts_ns',
  'duration_ns',
  'endpoint_service',
  'endpoint_name',
  'is_error',
  'span_count',
  'services',
  'story_kind',
  'ops',
  'op_durations_ns',
] as const;

export interface TraceSummaryRow {
  summary: TraceSummary;
  /** The trace's story kind, or '' when it has no story. */
  storyKind: StoryKind | '';
  /** The trace's operations, sorted by key (analysis's traceOps). */
  ops: readonly OpDuration[];
}

const s = JSON.stringify;

/** One JSONCompactEachRow line; ns as bare integers so they stay exact. */
function summaryLine({ summary: t, storyKind, ops }: TraceSummaryRow): string {
  let opKeys = '';
  let opDurations = '';
  for (let i = 0; i < ops.length; i++) {
    if (i > 0) {
      opKeys += ',';
      opDurations += ',';
    }
    opKeys += s(ops[i].op);
    opDurations += ops[i].duration_ns.toString();
  }
  return (
    `[${s(t.trace_id)},${t.ts_ns},${t.duration_ns},${s(t.endpoint_service)},${s(t.endpoint_name)},` +
    `${t.is_error ? 'true' : 'false'},${t.span_count},${s(t.services)},${s(storyKind)},[${opKeys}],[${opDurations}]]\n`
  );
}

/** Stores summaries in one insert. A replayed piece collapses with its copy (same sort key). */
export async function insertTraceSummaries(store: Store, rows: readonly TraceSummaryRow[]): Promise<void> {
  if (rows.length === 0) return;
  let payload = '';
  for (const row of rows) payload += summaryLine(row);
  await store.insertRaw('trace_summaries', SUMMARY_COLUMNS, payload);
}
