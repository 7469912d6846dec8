/** The `svc.stories` record of a story (DESIGN.md §5). */
import type { SpanRow } from '../model/signals.js';
import type { SpanTree } from './tree.js';
import type { ApiSpan, Story, StoryRecord } from './types.js';

/** The story with `root_cause` as the full span and the critical path's parts as top-level fields. */
export function storyRecord(story: Story, tree: SpanTree, rootCauseIndex: number): StoryRecord {
  const { root_cause: _summaryOnly, critical_path, ...rest } = story;
  return {
    ...rest,
    root_cause: apiSpan(tree, rootCauseIndex),
    critical_path: critical_path.segments,
    top_contributors: critical_path.top,
  };
}

/** A span in the trace API's shape; self time subtracts the real (not adopted) children. */
export function apiSpan(tree: SpanTree, index: number): ApiSpan {
  const span: SpanRow = tree.spans[index];
  const durationNs = span.endNs - span.startNs;
  let childrenNs = 0n;
  for (const c of tree.children[index]) {
    if (tree.parent[c] === index) childrenNs += tree.spans[c].endNs - tree.spans[c].startNs;
  }
  const selfNs = durationNs - childrenNs;
  return {
    span_id: span.spanId,
    parent_span_id: span.parentSpanId,
    service_name: span.serviceName,
    span_name: span.name,
    kind: span.kind,
    start_ns: span.startNs,
    duration_ns: durationNs,
    status: span.status,
    status_message: span.statusMessage,
    attrs: span.attrs,
    resource: span.resource,
    events: span.events.map((e) => ({ ts_ns: e.tsNs, name: e.name, attrs: e.attrs })),
    self_ns: selfNs > 0n ? selfNs : 0n,
  };
}
