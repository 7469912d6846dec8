/**
 * Builds one analysable tree from a trace's spans, whatever arrived: duplicate span ids, spans whose
 * parent never arrived, several roots and parent cycles. The result keeps two views apart:
 * `parent` (the real links that survived; used for service edges and self time) and `children`
 * (the analysis tree, in which every extra root hangs under the endpoint root).
 */
import type { SpanRow } from '../model/signals.js';
import { at } from '../util/at.js';

/** What the tree reads of a span: its id, its parent's id and its start. */
export type TreeSpan = Pick<SpanRow, 'spanId' | 'parentSpanId' | 'startNs'>;

export interface SpanTree<S extends TreeSpan = SpanRow> {
  /** Deduplicated spans; indexes below refer to this array. */
  spans: S[];
  /** Real parent index after cycle cutting, -1 for a root. */
  parent: Int32Array;
  /** Analysis children per span (real children plus, for the endpoint root, adopted roots), by start. */
  children: number[][];
  /** Index of the endpoint root. */
  rootIndex: number;
  /** A parent never arrived, there were several roots, or a cycle was cut. */
  incomplete: boolean;
}

/**
 * Builds the tree. Throws nothing; an empty `spans` is the caller's concern (no trace, no analysis),
 * so it must hold at least one span.
 */
export function buildSpanTree<S extends TreeSpan>(input: readonly S[]): SpanTree<S> {
  const spans = dedupe(input);
  const count = spans.length;
  const indexById = new Map<string, number>();
  for (let i = 0; i < count; i++) indexById.set(at(spans, i).spanId, i);

  let incomplete = false;
  const parent = new Int32Array(count);
  for (let i = 0; i < count; i++) {
    const parentId = at(spans, i).parentSpanId;
    if (parentId === '') {
      parent[i] = -1;
      continue;
    }
    const p = indexById.get(parentId);
    if (p === undefined || p === i) {
      // A parent that never arrived (or a span naming itself): the span becomes a root of its own.
      parent[i] = -1;
      incomplete = true;
    } else {
      parent[i] = p;
    }
  }
  if (cutCycles(spans, parent)) incomplete = true;

  const roots: number[] = [];
  for (let i = 0; i < count; i++) if (parent[i] === -1) roots.push(i);
  if (roots.length > 1) incomplete = true;
  const rootIndex = pickEndpointRoot(spans, roots);

  const children: number[][] = Array.from({ length: count }, () => []);
  for (let i = 0; i < count; i++) {
    const p = at(parent, i);
    if (p !== -1) at(children, p).push(i);
    // Every span of a trace descends from its one real root, so a root whose parent is missing (or
    // a second root) most likely hangs somewhere below the endpoint root: adopting it there keeps
    // its failures and its time in the root cause, path and critical path instead of dropping them.
    else if (i !== rootIndex) at(children, rootIndex).push(i);
  }
  for (const list of children) if (list.length > 1) list.sort((a, b) => compareStart(at(spans, a), at(spans, b)));
  return { spans, parent, children, rootIndex, incomplete };
}

/**
 * Keeps the first arrival of each span id: duplicates are replays of one export (the bus delivers
 * at least once), so they carry the same content and the first is as good as any.
 */
function dedupe<S extends TreeSpan>(input: readonly S[]): S[] {
  const seen = new Set<string>();
  const out: S[] = [];
  for (const span of input) {
    if (seen.has(span.spanId)) continue;
    seen.add(span.spanId);
    out.push(span);
  }
  return out;
}

/**
 * Cuts every parent cycle by making its earliest-starting span a root: that span is the likeliest
 * real ancestor of the others. Returns whether anything was cut.
 */
function cutCycles(spans: readonly TreeSpan[], parent: Int32Array): boolean {
  const UNSEEN = 0;
  const ON_WALK = 1;
  const DONE = 2;
  const state = new Uint8Array(spans.length);
  let cut = false;
  const walk: number[] = [];
  for (let start = 0; start < spans.length; start++) {
    if (state[start] !== UNSEEN) continue;
    walk.length = 0;
    let node = start;
    while (node !== -1 && state[node] === UNSEEN) {
      state[node] = ON_WALK;
      walk.push(node);
      node = at(parent, node);
    }
    if (node !== -1 && state[node] === ON_WALK) {
      // `node` is on the current walk: the walk from `node` to its end is a cycle.
      const cycle = walk.slice(walk.indexOf(node));
      let earliest = node;
      for (const i of cycle) if (compareStart(at(spans, i), at(spans, earliest)) < 0) earliest = i;
      parent[earliest] = -1;
      cut = true;
    }
    for (const i of walk) state[i] = DONE;
  }
  return cut;
}

/**
 * The endpoint root is the earliest-starting root, preferring spans that declare no parent: those
 * are the request's real entry point, while a span whose parent is missing only looks like a root
 * (its missing ancestor started earlier, so clock skew alone could make it the earliest).
 */
function pickEndpointRoot(spans: readonly TreeSpan[], roots: readonly number[]): number {
  let best = -1;
  for (const i of roots) {
    if (best === -1) {
      best = i;
      continue;
    }
    const declared = at(spans, i).parentSpanId === '';
    const bestDeclared = at(spans, best).parentSpanId === '';
    if (declared !== bestDeclared) {
      if (declared) best = i;
      continue;
    }
    if (compareStart(at(spans, i), at(spans, best)) < 0) best = i;
  }
  return best;
}

/** Start time, then span id: a total order so results never depend on arrival order. */
export function compareStart(a: TreeSpan, b: TreeSpan): number {
  if (a.startNs !== b.startNs) return a.startNs < b.startNs ? -1 : 1;
  return a.spanId < b.spanId ? -1 : a.spanId > b.spanId ? 1 : 0;
}
