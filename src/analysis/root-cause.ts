/**
 * Root cause of an error story: among failing spans that have no failing descendant (the deepest
 * failures; their ancestors failed because of them), the one that ended first, since later failures
 * are usually consequences of it. The other such spans are the story's `also_failed`.
 */
import type { LogRow } from '../model/signals.js';
import { failureOf } from './failure.js';
import type { SpanTree } from './tree.js';
import type { AlsoFailed } from './types.js';

export interface ErrorRootCause {
  /** Index of the root-cause span. */
  index: number;
  message: string;
  exceptionType: string;
  alsoFailed: AlsoFailed[];
}

/** Null when no span failed. `failing[i]` says whether span i is an error span. */
export function errorRootCause(tree: SpanTree, failing: readonly boolean[], logsBySpanId: ReadonlyMap<string, LogRow[]>): ErrorRootCause | null {
  const leaves = failingLeaves(tree, failing);
  if (leaves.length === 0) return null;
  const { spans } = tree;
  leaves.sort((a, b) => {
    const x = spans[a];
    const y = spans[b];
    if (x.endNs !== y.endNs) return x.endNs < y.endNs ? -1 : 1;
    if (x.startNs !== y.startNs) return x.startNs < y.startNs ? -1 : 1;
    return x.spanId < y.spanId ? -1 : x.spanId > y.spanId ? 1 : 0;
  });
  const [first, ...others] = leaves;
  const failure = failureOf(spans[first], logsBySpanId.get(spans[first].spanId));
  const alsoFailed = others.map((index): AlsoFailed => {
    const span = spans[index];
    return {
      span_id: span.spanId,
      service: span.serviceName,
      span_name: span.name,
      message: failureOf(span, logsBySpanId.get(span.spanId)).message,
      end_ns: span.endNs,
    };
  });
  return { index: first, message: failure.message, exceptionType: failure.exceptionType, alsoFailed };
}

/** Failing spans with no failing descendant in the analysis tree, found bottom-up in one pass. */
function failingLeaves(tree: SpanTree, failing: readonly boolean[]): number[] {
  const order = postOrder(tree);
  const subtreeFails = new Uint8Array(tree.spans.length);
  const leaves: number[] = [];
  for (const i of order) {
    let descendantFails = false;
    for (const c of tree.children[i]) if (subtreeFails[c] === 1) descendantFails = true;
    if (failing[i] && !descendantFails) leaves.push(i);
    subtreeFails[i] = failing[i] || descendantFails ? 1 : 0;
  }
  return leaves;
}

/** Children before parents, without recursion (traces can be 10,000 spans deep). */
export function postOrder(tree: SpanTree): number[] {
  const out: number[] = [];
  const stack: number[] = [tree.rootIndex];
  while (stack.length > 0) {
    const i = stack.pop() as number;
    out.push(i);
    for (const c of tree.children[i]) stack.push(c);
  }
  return out.reverse();
}
