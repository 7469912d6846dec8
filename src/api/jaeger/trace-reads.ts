/** Reading whole traces for the Jaeger APIs, within one answer's bound. */

import type { SpanRow } from '../../model/signals.js';
import type { QueryOptions, Store } from '../../model/store.js';
import { getTracesSpans } from '../../store/spans.js';

/**
 * The answer's bound: at most this many spans in one answer (Jaeger sets none; its UI freezes
 * long before). A trace past it is cut at its latest-starting spans and says so in its warnings.
 */
export const MAX_ANSWER_SPANS = 10_000;

/** The spans of each trace found, in the order of `traceIds`, within the answer's bound; `cut` when spans were left out. */
export async function readTraceSpans(
  store: Store,
  traceIds: readonly string[],
  options: QueryOptions,
  nowMs: number,
): Promise<{ byTrace: Map<string, SpanRow[]>; cut: boolean }> {
  const spans = await getTracesSpans(store, traceIds, { ...options, nowMs, maxSpans: MAX_ANSWER_SPANS + 1, withLinks: true });
  const cut = spans.length > MAX_ANSWER_SPANS;
  const kept = cut ? spans.slice(0, MAX_ANSWER_SPANS) : spans;
  const found = new Map<string, SpanRow[]>();
  for (const span of kept) {
    const rows = found.get(span.traceId);
    if (rows === undefined) found.set(span.traceId, [span]);
    else rows.push(span);
  }
  const byTrace = new Map<string, SpanRow[]>();
  for (const traceId of traceIds) {
    const rows = found.get(traceId);
    if (rows !== undefined) byTrace.set(traceId, rows);
  }
  return { byTrace, cut };
}
