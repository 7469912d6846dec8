/** Service-to-service calls of one trace, for the service map. */
import { at } from '../util/at.js';
import type { SpanTree } from './tree.js';
import type { ServiceEdge } from './types.js';

/**
 * One edge per (parent service, child service) pair wherever a span's real parent (not an adopted
 * root) is in another service; errors count failing child spans.
 */
export function serviceEdges(tree: SpanTree, failing: readonly boolean[]): ServiceEdge[] {
  const byPair = new Map<string, ServiceEdge>();
  const { spans } = tree;
  for (let i = 0; i < spans.length; i++) {
    const p = at(tree.parent, i);
    if (p === -1) continue;
    const span = at(spans, i);
    const parent = at(spans, p).serviceName;
    const child = span.serviceName;
    if (parent === child) continue;
    const key = `${parent}\u0000${child}`;
    let edge = byPair.get(key);
    if (edge === undefined) byPair.set(key, (edge = { parent, child, calls: 0, errors: 0, total_duration_ns: 0n }));
    edge.calls += 1;
    if (failing[i]) edge.errors += 1;
    edge.total_duration_ns += span.endNs - span.startNs;
  }
  return [...byPair.values()];
}
