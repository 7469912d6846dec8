import type { MapEdge, MapNode } from '../../api/types';

export const NODE_WIDTH = 210;
export const NODE_HEIGHT = 50;
const LAYER_GAP = 200;
const ROW_GAP = 34;

export interface PlacedNode {
  service: string;
  node: MapNode | undefined;
  x: number;
  y: number;
  layer: number;
}

export interface Layout {
  nodes: PlacedNode[];
  edges: MapEdge[];
  width: number;
  height: number;
}

/**
 * A layered left-to-right layout: callers left of callees. Back edges of cycles are ignored for
 * layering (found by DFS); each layer is ordered by the mean position of its callers, two sweeps,
 * which keeps most edges short without a graph library.
 */
export function layoutGraph(nodes: MapNode[], edges: MapEdge[]): Layout {
  const names = new Set<string>(nodes.map((n) => n.service));
  for (const edge of edges) {
    names.add(edge.parent);
    names.add(edge.child);
  }
  const sorted = [...names].sort();
  const out = new Map<string, string[]>(sorted.map((name) => [name, []]));
  const incoming = new Map<string, string[]>(sorted.map((name) => [name, []]));
  for (const edge of edges) {
    if (edge.parent === edge.child) continue;
    out.get(edge.parent)!.push(edge.child);
    incoming.get(edge.child)!.push(edge.parent);
  }

  // Depth-first search marks back edges so cycles do not make layering loop.
  const state = new Map<string, 1 | 2>();
  const back = new Set<string>();
  for (const start of sorted) {
    if (state.has(start)) continue;
    const stack: [string, number][] = [[start, 0]];
    state.set(start, 1);
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      const children = out.get(top[0])!;
      if (top[1] >= children.length) {
        state.set(top[0], 2);
        stack.pop();
        continue;
      }
      const child = children[top[1]++];
      const seen = state.get(child);
      if (seen === 1) back.add(`${top[0]}\u0000${child}`);
      else if (seen === undefined) {
        state.set(child, 1);
        stack.push([child, 0]);
      }
    }
  }

  // Longest-path layering over the acyclic remainder (Kahn order).
  const layer = new Map<string, number>(sorted.map((name) => [name, 0]));
  const indegree = new Map<string, number>(sorted.map((name) => [name, 0]));
  for (const name of sorted) for (const child of out.get(name)!) if (!back.has(`${name}\u0000${child}`)) indegree.set(child, indegree.get(child)! + 1);
  const queue = sorted.filter((name) => indegree.get(name) === 0);
  while (queue.length > 0) {
    const name = queue.shift()!;
    for (const child of out.get(name)!) {
      if (back.has(`${name}\u0000${child}`)) continue;
      layer.set(child, Math.max(layer.get(child)!, layer.get(name)! + 1));
      indegree.set(child, indegree.get(child)! - 1);
      if (indegree.get(child) === 0) queue.push(child);
    }
  }

  const layers: string[][] = [];
  for (const name of sorted) (layers[layer.get(name)!] ??= []).push(name);
  const position = new Map<string, number>();
  layers.forEach((list) => list.forEach((name, index) => position.set(name, index)));
  for (let sweep = 0; sweep < 2; sweep++) {
    for (const list of layers) {
      const score = (name: string) => {
        const parents = incoming.get(name)!.filter((p) => layer.get(p)! < layer.get(name)!);
        return parents.length === 0 ? position.get(name)! : parents.reduce((sum, p) => sum + position.get(p)!, 0) / parents.length;
      };
      list.sort((a, b) => score(a) - score(b) || a.localeCompare(b));
      list.forEach((name, index) => position.set(name, index));
    }
  }

  const tallest = Math.max(1, ...layers.map((list) => list.length));
  const byName = new Map(nodes.map((n) => [n.service, n]));
  const placed: PlacedNode[] = [];
  layers.forEach((list, layerIndex) => {
    // Centre short layers against the tallest one.
    const offset = ((tallest - list.length) * (NODE_HEIGHT + ROW_GAP)) / 2;
    list.forEach((name, index) => {
      placed.push({
        service: name,
        node: byName.get(name),
        layer: layerIndex,
        x: 16 + layerIndex * (NODE_WIDTH + LAYER_GAP),
        y: 16 + offset + index * (NODE_HEIGHT + ROW_GAP),
      });
    });
  });
  return {
    nodes: placed,
    edges,
    width: 32 + layers.length * NODE_WIDTH + Math.max(0, layers.length - 1) * LAYER_GAP,
    height: 32 + tallest * NODE_HEIGHT + (tallest - 1) * ROW_GAP,
  };
}

/** Applies the map's filters: infrastructure hidden unless shown, `q` and `service` neighbourhoods. */
export function filterGraph(
  nodes: MapNode[],
  edges: MapEdge[],
  options: { hidden: ReadonlySet<string>; q: string; service: string },
): { nodes: MapNode[]; edges: MapEdge[]; matched: Set<string> } {
  let keptEdges = edges.filter((e) => !options.hidden.has(e.parent) && !options.hidden.has(e.child));
  let keptNames = new Set<string>(nodes.map((n) => n.service).filter((s) => !options.hidden.has(s)));
  for (const e of keptEdges) {
    keptNames.add(e.parent);
    keptNames.add(e.child);
  }
  const matched = new Set<string>();
  // Keep the matching services and their direct callers and callees, with the edges that touch a match.
  const focus = (predicate: (name: string) => boolean) => {
    const hits = new Set([...keptNames].filter(predicate));
    keptEdges = keptEdges.filter((e) => hits.has(e.parent) || hits.has(e.child));
    const next = new Set(hits);
    for (const e of keptEdges) {
      next.add(e.parent);
      next.add(e.child);
    }
    hits.forEach((hit) => matched.add(hit));
    keptNames = next;
  };
  const q = options.q.trim().toLowerCase();
  if (q !== '') focus((name) => name.toLowerCase().includes(q));
  if (options.service !== '') focus((name) => name === options.service);
  return { nodes: nodes.filter((n) => keptNames.has(n.service)), edges: keptEdges, matched };
}
