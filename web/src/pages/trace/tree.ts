import type { Span } from '../../api/types';

/** A span placed in the waterfall: DFS order, depth, and where its subtree ends. */
export interface Row {
  span: Span;
  depth: number;
  /** Index one past the last descendant in DFS order (skip target when collapsed). */
  subtreeEnd: number;
  childCount: number;
  /** All spans below this one (shown as "+N" when folded). */
  descendants: number;
  isError: boolean;
}

export interface TraceTree {
  rows: Row[];
  indexById: Map<string, number>;
  startNs: number;
  endNs: number;
  errorCount: number;
  services: string[];
}

/**
 * Orders spans parent-before-child, children by start time, in O(n log n) without recursion (a
 * 10,000-span chain must not overflow the stack). Spans whose parent is absent become roots; a
 * parent cycle is cut where it is first met.
 */
export function buildTree(spans: Span[]): TraceTree {
  const byId = new Map<string, Span>();
  for (const span of spans) byId.set(span.span_id, span);
  const children = new Map<string, Span[]>();
  const roots: Span[] = [];
  for (const span of spans) {
    if (span.parent_span_id === '' || !byId.has(span.parent_span_id) || span.parent_span_id === span.span_id) roots.push(span);
    else {
      const list = children.get(span.parent_span_id);
      if (list === undefined) children.set(span.parent_span_id, [span]);
      else list.push(span);
    }
  }
  const byStart = (a: Span, b: Span) => a.start_ns - b.start_ns;
  roots.sort(byStart);
  for (const list of children.values()) list.sort(byStart);

  const rows: Row[] = [];
  const visited = new Set<string>();
  const visit = (root: Span) => {
    // Stack of [span, depth, rowIndex or -1 when entering]; the exit step fills subtreeEnd.
    const stack: [Span, number, number][] = [[root, 0, -1]];
    while (stack.length > 0) {
      const frame = stack.pop()!;
      const [span, depth, rowIndex] = frame;
      if (rowIndex >= 0) {
        rows[rowIndex].subtreeEnd = rows.length;
        rows[rowIndex].descendants = rows.length - rowIndex - 1;
        continue;
      }
      if (visited.has(span.span_id)) continue;
      visited.add(span.span_id);
      const kids = (children.get(span.span_id) ?? []).filter((kid) => !visited.has(kid.span_id));
      const index = rows.length;
      rows.push({
        span,
        depth,
        subtreeEnd: index + 1,
        childCount: kids.length,
        descendants: 0,
        isError: span.status === 'error' || span.events.some((event) => event.name === 'exception'),
      });
      stack.push([span, depth, index]);
      for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i], depth + 1, -1]);
    }
  };
  for (const root of roots) visit(root);
  // Spans caught in a cycle with no root reach: show them as roots rather than lose them.
  for (const span of spans) if (!visited.has(span.span_id)) visit(span);

  const indexById = new Map<string, number>();
  let startNs = Infinity;
  let endNs = -Infinity;
  let errorCount = 0;
  const services = new Set<string>();
  rows.forEach((row, index) => {
    indexById.set(row.span.span_id, index);
    startNs = Math.min(startNs, row.span.start_ns);
    endNs = Math.max(endNs, row.span.start_ns + row.span.duration_ns);
    if (row.isError) errorCount++;
    services.add(row.span.service_name);
  });
  if (rows.length === 0) {
    startNs = 0;
    endNs = 1;
  }
  return { rows, indexById, startNs, endNs, errorCount, services: [...services].sort() };
}

/** Indexes of the rows shown with some subtrees collapsed. */
export function visibleRows(tree: TraceTree, collapsed: ReadonlySet<string>): number[] {
  const shown: number[] = [];
  let index = 0;
  while (index < tree.rows.length) {
    shown.push(index);
    const row = tree.rows[index];
    index = collapsed.has(row.span.span_id) ? row.subtreeEnd : index + 1;
  }
  return shown;
}

/** Span ids of a row's ancestors, to expand them when a span is selected from a link. */
export function ancestorIds(tree: TraceTree, spanId: string): string[] {
  const ids: string[] = [];
  const byId = new Map(tree.rows.map((row) => [row.span.span_id, row.span]));
  let current = byId.get(spanId);
  const seen = new Set<string>();
  while (current !== undefined && current.parent_span_id !== '' && !seen.has(current.parent_span_id)) {
    seen.add(current.parent_span_id);
    ids.push(current.parent_span_id);
    current = byId.get(current.parent_span_id);
  }
  return ids;
}

/** The next (or previous) index of a sorted list after `current` in tree order, wrapping around; -1 when empty. */
export function stepIndex(list: readonly number[], current: number, direction: 1 | -1): number {
  if (list.length === 0) return -1;
  if (direction === 1) return list.find((i) => i > current) ?? list[0];
  for (let k = list.length - 1; k >= 0; k--) if (list[k] < current) return list[k];
  return list[list.length - 1];
}
