/**
 * A trace as a compact topology (pure): spans in depth-first order, each with its position path
 * ("0.2.1" is the second child of the third child of the root), offsets and durations in ms and
 * its error. A trace larger than `maxSpans` is summarised: the root, the failing spans and the
 * spans with the most self time, each with its ancestors, then the shallowest spans, plus
 * per-operation totals.
 */

import { buildSpanTree, compareStart } from '../analysis/tree.js';
import { at } from '../util/at.js';
import { clip } from './bound.js';

export interface TraceSpanInput {
  span_id: string;
  parent_span_id: string;
  service_name: string;
  span_name: string;
  kind: string;
  start_ns: bigint | number | string;
  duration_ns: bigint | number | string;
  self_ns: bigint | number | string;
  status: string;
  status_message: string;
}

export interface TopologyEntry {
  span_id: string;
  path: string;
  service: string;
  name: string;
  kind: string;
  start_ms: number;
  duration_ms: number;
  self_ms: number;
  error?: string;
  /** Children not shown (summarised traces only). */
  hidden_children?: number;
}

export interface Topology {
  span_count: number;
  /** Spans under the focus span (itself included), or span_count without a focus. */
  scope_span_count: number;
  shown: number;
  summarised: boolean;
  error_spans: number;
  start_ns: string;
  duration_ms: number;
  services: { service: string; spans: number; errors: number }[];
  operations?: { service: string; name: string; count: number; errors: number; self_ms: number; max_ms: number }[];
  spans: TopologyEntry[];
}

interface Node {
  span: TraceSpanInput;
  startNs: bigint;
  durationNs: bigint;
  selfNs: bigint;
  /** Parent and children as positions in depth-first order (-1: a root). */
  parent: number;
  children: number[];
  path: string;
  depth: number;
  /** Spans in its subtree, itself included: a subtree is a contiguous range of the order. */
  size: number;
}

const big = (value: bigint | number | string): bigint => (typeof value === 'bigint' ? value : BigInt(value));
const ms = (ns: bigint): number => Number(ns / 1000n) / 1000;
const isError = (span: TraceSpanInput): boolean => span.status === 'error';

/** A span as the shared tree builder reads it, carrying the API's span. */
interface TreeInput {
  spanId: string;
  parentSpanId: string;
  startNs: bigint;
  span: TraceSpanInput;
}

/**
 * The spans in depth-first order, children by start time. The links are analysis/tree.ts's real
 * parents, so duplicates, missing parents and cycles follow the assembler's rules: a span whose
 * parent is absent is a root of its own, and a cycle is cut at its earliest span.
 */
function depthFirst(input: TraceSpanInput[]): Node[] {
  const tree = buildSpanTree<TreeInput>(input.map((span) => ({ spanId: span.span_id, parentSpanId: span.parent_span_id, startNs: big(span.start_ns), span })));
  const children: number[][] = tree.spans.map(() => []);
  const roots: number[] = [];
  tree.parent.forEach((parent, index) => (parent >= 0 ? at(children, parent) : roots).push(index));
  const byStart = (a: number, b: number) => compareStart(at(tree.spans, a), at(tree.spans, b));
  for (const list of children) list.sort(byStart);
  roots.sort(byStart);
  const nodes: Node[] = [];
  const visit = (root: number, rootPath: string) => {
    const stack: { index: number; path: string; depth: number; parent: number }[] = [{ index: root, path: rootPath, depth: 0, parent: -1 }];
    while (stack.length > 0) {
      const { index, path, depth, parent } = stack.pop()!;
      const position = nodes.length;
      const { span, startNs } = at(tree.spans, index);
      nodes.push({ span, startNs, durationNs: big(span.duration_ns), selfNs: big(span.self_ns), parent, children: [], path, depth, size: 1 });
      if (parent >= 0) at(nodes, parent).children.push(position);
      const own = at(children, index);
      for (let i = own.length - 1; i >= 0; i--) stack.push({ index: at(own, i), path: `${path}.${i}`, depth: depth + 1, parent: position });
    }
  };
  roots.forEach((root, rank) => visit(root, String(rank)));
  for (let position = nodes.length - 1; position >= 0; position--) {
    const node = at(nodes, position);
    node.size = 1 + node.children.reduce((sum, child) => sum + at(nodes, child).size, 0);
  }
  return nodes;
}

/** The topology of `spans`, optionally only the subtree of `focusSpanId`, at most `maxSpans` entries. */
export function buildTopology(spans: TraceSpanInput[], options: { maxSpans: number; focusSpanId?: string }): Topology | { missingFocus: true } {
  const nodes = depthFirst(spans);
  let first = 0;
  let end = nodes.length;
  if (options.focusSpanId !== undefined) {
    first = nodes.findIndex((node) => node.span.span_id === options.focusSpanId);
    if (first < 0) return { missingFocus: true };
    end = first + at(nodes, first).size;
  }
  const inScope = Array.from({ length: end - first }, (_, i) => first + i);
  const summarised = inScope.length > options.maxSpans;
  const chosen = new Set<number>();
  if (!summarised) for (const position of inScope) chosen.add(position);
  else {
    const addWithAncestors = (position: number): void => {
      const missing: number[] = [];
      for (let ancestor = position; ancestor >= first && !chosen.has(ancestor); ancestor = at(nodes, ancestor).parent) missing.push(ancestor);
      if (chosen.size + missing.length > options.maxSpans) return;
      for (const item of missing) chosen.add(item);
    };
    addWithAncestors(first);
    for (const position of inScope) if (isError(at(nodes, position).span)) addWithAncestors(position);
    const selfOf = (position: number) => at(nodes, position).selfNs;
    const bySelf = [...inScope].sort((a, b) => (selfOf(b) > selfOf(a) ? 1 : selfOf(b) < selfOf(a) ? -1 : a - b));
    for (const position of bySelf.slice(0, Math.ceil(options.maxSpans / 4))) addWithAncestors(position);
    const byDepth = [...inScope].sort((a, b) => at(nodes, a).depth - at(nodes, b).depth || a - b);
    for (const position of byDepth) {
      if (chosen.size >= options.maxSpans) break;
      addWithAncestors(position);
    }
  }
  const scope = inScope.map((position) => at(nodes, position));
  const traceStartNs = nodes.reduce((min, node) => (node.startNs < min ? node.startNs : min), nodes[0]?.startNs ?? 0n);
  const traceEndNs = nodes.reduce((max, node) => (node.startNs + node.durationNs > max ? node.startNs + node.durationNs : max), traceStartNs);
  const entries = inScope
    .filter((position) => chosen.has(position))
    .map((position) => {
      const node = at(nodes, position);
      const entry: TopologyEntry = {
        span_id: node.span.span_id,
        path: node.path,
        service: node.span.service_name,
        name: clip(node.span.span_name, 120),
        kind: node.span.kind,
        start_ms: ms(node.startNs - traceStartNs),
        duration_ms: ms(node.durationNs),
        self_ms: ms(node.selfNs),
      };
      if (isError(node.span)) entry.error = clip(node.span.status_message === '' ? 'error' : node.span.status_message, 200);
      const hidden = node.children.filter((child) => !chosen.has(child)).length;
      if (hidden > 0) entry.hidden_children = hidden;
      return entry;
    });
  return {
    span_count: nodes.length,
    scope_span_count: scope.length,
    shown: entries.length,
    summarised,
    error_spans: scope.filter((node) => isError(node.span)).length,
    start_ns: traceStartNs.toString(),
    duration_ms: ms(traceEndNs - traceStartNs),
    services: serviceTotals(scope),
    ...(summarised ? { operations: operationTotals(scope) } : {}),
    spans: entries,
  };
}

function serviceTotals(scope: Node[]): Topology['services'] {
  const totals = new Map<string, { service: string; spans: number; errors: number }>();
  for (const node of scope) {
    const total = totals.get(node.span.service_name) ?? { service: node.span.service_name, spans: 0, errors: 0 };
    total.spans++;
    if (isError(node.span)) total.errors++;
    totals.set(node.span.service_name, total);
  }
  return [...totals.values()].sort((a, b) => b.spans - a.spans).slice(0, 30);
}

/** The 15 operations with most self time in scope: where a large trace spends its time. */
function operationTotals(scope: Node[]): NonNullable<Topology['operations']> {
  const totals = new Map<string, { service: string; name: string; count: number; errors: number; selfNs: bigint; maxNs: bigint }>();
  for (const node of scope) {
    const key = `${node.span.service_name}\0${node.span.span_name}`;
    const total = totals.get(key) ?? { service: node.span.service_name, name: clip(node.span.span_name, 120), count: 0, errors: 0, selfNs: 0n, maxNs: 0n };
    total.count++;
    if (isError(node.span)) total.errors++;
    total.selfNs += node.selfNs;
    if (node.durationNs > total.maxNs) total.maxNs = node.durationNs;
    totals.set(key, total);
  }
  return [...totals.values()]
    .sort((a, b) => (b.selfNs > a.selfNs ? 1 : b.selfNs < a.selfNs ? -1 : 0))
    .slice(0, 15)
    .map((total) => ({
      service: total.service,
      name: total.name,
      count: total.count,
      errors: total.errors,
      self_ms: ms(total.selfNs),
      max_ms: ms(total.maxNs),
    }));
}
