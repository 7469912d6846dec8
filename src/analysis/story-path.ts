/** The path from the endpoint root down to the root-cause span, as spans and as services. */
import { at } from '../util/at.js';
import type { SpanTree } from './tree.js';
import type { PathSpan } from './types.js';

/** Spans from the endpoint root to `target` inclusive, following the analysis tree. */
export function pathSpans(tree: SpanTree, target: number): PathSpan[] {
  const chain: number[] = [];
  for (let node = target; node !== -1; node = at(tree.parent, node)) chain.push(node);
  // A root reached that is not the endpoint root was adopted under it (see tree.ts).
  if (chain[chain.length - 1] !== tree.rootIndex) chain.push(tree.rootIndex);
  chain.reverse();
  return chain.map((index) => {
    const span = at(tree.spans, index);
    return {
      span_id: span.spanId,
      service: span.serviceName,
      name: span.name,
      kind: span.kind,
      status: span.status,
      start_ns: span.startNs,
      duration_ns: span.endNs - span.startNs,
    };
  });
}

/** The path's services with consecutive spans of one service collapsed into one entry. */
export function pathServices(path: readonly PathSpan[]): string[] {
  const services: string[] = [];
  for (const span of path) if (services[services.length - 1] !== span.service) services.push(span.service);
  return services;
}
