/**
 * The critical path: the chain of work the root span's end waited on, found by walking backward
 * from the root's end and, at each step, following the child that ended last. Iterative, so a
 * 10,000-deep span chain cannot overflow the stack.
 */
import type { SpanTree } from './tree.js';
import type { CriticalPath, CriticalSegment, TopContributor } from './types.js';

/** A child may end this much after its parent (clocks of two hosts disagree) and still count. */
export const CLOCK_SKEW_TOLERANCE_NS = 5_000_000n;
export const TOP_CONTRIBUTORS = 3;

export interface CriticalPathResult extends CriticalPath {
  /** Self time on the path by span index. */
  selfTimeNs: Map<number, bigint>;
}

interface Frame {
  span: number;
  /** The span's window on the path: its start clamped into its parent's window. */
  lowNs: bigint;
  /** Walks down from the span's (clamped) end; time above it is already accounted for. */
  cursorNs: bigint;
  /** Children, latest end first. */
  order: number[];
  next: number;
}

/** Computes segments (time order), per-span self time on the path and the top contributors. */
export function criticalPath(tree: SpanTree): CriticalPathResult {
  const { spans } = tree;
  const backward: { span: number; startNs: bigint; endNs: bigint }[] = [];
  const root = spans[tree.rootIndex];
  const stack: Frame[] = [frame(tree, tree.rootIndex, root.startNs, root.endNs)];

  while (stack.length > 0) {
    const top = stack[stack.length - 1];
    const child = nextChild(tree, top);
    if (child === -1) {
      if (top.cursorNs > top.lowNs) backward.push({ span: top.span, startNs: top.lowNs, endNs: top.cursorNs });
      stack.pop();
      const parent = stack[stack.length - 1];
      // The parent resumes where this child started: everything later was covered by the child.
      if (parent !== undefined) parent.cursorNs = top.lowNs;
      continue;
    }
    const span = spans[child];
    const childEndNs = span.endNs < top.cursorNs ? span.endNs : top.cursorNs;
    if (top.cursorNs > childEndNs) backward.push({ span: top.span, startNs: childEndNs, endNs: top.cursorNs });
    const childLowNs = span.startNs > top.lowNs ? span.startNs : top.lowNs;
    stack.push(frame(tree, child, childLowNs, childEndNs));
  }

  const segments: CriticalSegment[] = [];
  const selfTimeNs = new Map<number, bigint>();
  for (let i = backward.length - 1; i >= 0; i--) {
    const piece = backward[i];
    const span = spans[piece.span];
    segments.push({ span_id: span.spanId, service: span.serviceName, name: span.name, start_ns: piece.startNs, end_ns: piece.endNs });
    selfTimeNs.set(piece.span, (selfTimeNs.get(piece.span) ?? 0n) + (piece.endNs - piece.startNs));
  }
  return { segments, top: topContributors(tree, selfTimeNs), selfTimeNs };
}

function frame(tree: SpanTree, span: number, lowNs: bigint, cursorNs: bigint): Frame {
  const order = tree.children[span].slice();
  if (order.length > 1) {
    const spans = tree.spans;
    order.sort((a, b) => (spans[a].endNs > spans[b].endNs ? -1 : spans[a].endNs < spans[b].endNs ? 1 : 0));
  }
  return { span, lowNs, cursorNs, order, next: 0 };
}

/**
 * The next child on the path: the latest-ending child that ends no later than the cursor plus the
 * skew tolerance and started before the cursor. Children are scanned once, latest end first: the
 * cursor only moves down, so a child rejected now can never qualify later.
 */
function nextChild(tree: SpanTree, top: Frame): number {
  if (top.cursorNs <= top.lowNs) return -1;
  while (top.next < top.order.length) {
    const child = top.order[top.next++];
    const span = tree.spans[child];
    if (span.endNs > top.cursorNs + CLOCK_SKEW_TOLERANCE_NS) continue;
    if (span.endNs <= top.lowNs) return -1;
    if (span.startNs >= top.cursorNs) continue;
    return child;
  }
  return -1;
}

/** The spans with the most self time on the path, largest first (span id breaks ties). */
function topContributors(tree: SpanTree, selfTimeNs: Map<number, bigint>): TopContributor[] {
  const ranked = [...selfTimeNs.entries()].sort((a, b) => {
    if (a[1] !== b[1]) return a[1] > b[1] ? -1 : 1;
    const idA = tree.spans[a[0]].spanId;
    const idB = tree.spans[b[0]].spanId;
    return idA < idB ? -1 : idA > idB ? 1 : 0;
  });
  return ranked.slice(0, TOP_CONTRIBUTORS).map(([index, self]) => {
    const span = tree.spans[index];
    return { span_id: span.spanId, service: span.serviceName, name: span.name, self_time_ns: self };
  });
}
