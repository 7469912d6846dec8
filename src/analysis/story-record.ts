/** The `svc.stories` record of a story (DESIGN.md §5). */
import { at } from '../util/at.js';
import { toApiSpan } from './api-span.js';
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

/** A span of the tree in the trace API's shape; self time subtracts the real (not adopted) children. */
export function apiSpan(tree: SpanTree, index: number): ApiSpan {
  let childrenNs = 0n;
  for (const c of at(tree.children, index)) {
    if (tree.parent[c] === index) {
      const child = at(tree.spans, c);
      childrenNs += child.endNs - child.startNs;
    }
  }
  return toApiSpan(at(tree.spans, index), childrenNs);
}
