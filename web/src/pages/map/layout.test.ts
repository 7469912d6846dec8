import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { MapEdge, MapNode } from '../../api/types.js';
import { filterGraph, layoutGraph } from './layout.js';

const node = (service: string): MapNode => ({ service, calls: 1, rate: 1, error_ratio: 0, p99_ns: 1, baseline_p99_ns: 1, health: 'ok' });
const edge = (parent: string, child: string): MapEdge => ({ parent, child, calls: 1, errors: 0, error_rate: 0, avg_duration_ns: 1 });

describe('layoutGraph', () => {
  it('places callers left of their callees', () => {
    const layout = layoutGraph(['frontend', 'checkout', 'payment'].map(node), [
      edge('frontend', 'checkout'),
      edge('checkout', 'payment'),
      edge('frontend', 'payment'),
    ]);
    const x = Object.fromEntries(layout.nodes.map((n) => [n.service, n.x]));
    assert.ok(x.frontend < x.checkout && x.checkout < x.payment);
  });

  it('terminates on cycles and keeps services known only from edges', () => {
    const layout = layoutGraph([node('a')], [edge('a', 'b'), edge('b', 'c'), edge('c', 'a')]);
    assert.deepEqual(layout.nodes.map((n) => n.service).sort(), ['a', 'b', 'c']);
    assert.ok(layout.width > 0 && layout.height > 0);
  });
});

describe('filterGraph', () => {
  const nodes = ['frontend', 'checkout', 'payment', 'flagd'].map(node);
  const edges = [edge('frontend', 'checkout'), edge('checkout', 'payment'), edge('frontend', 'flagd')];
  it('hides infrastructure services and their edges', () => {
    const result = filterGraph(nodes, edges, { hidden: new Set(['flagd']), q: '', service: '' });
    assert.deepEqual(
      result.nodes.map((n) => n.service),
      ['frontend', 'checkout', 'payment'],
    );
    assert.equal(result.edges.length, 2);
  });
  it('keeps a service with its direct callers and callees', () => {
    const result = filterGraph(nodes, edges, { hidden: new Set(), q: '', service: 'checkout' });
    assert.deepEqual(result.nodes.map((n) => n.service).sort(), ['checkout', 'frontend', 'payment']);
    assert.deepEqual([...result.matched], ['checkout']);
  });
  it('matches q case-insensitively as a substring', () => {
    const result = filterGraph(nodes, edges, { hidden: new Set(), q: 'PAY', service: '' });
    assert.deepEqual([...result.matched], ['payment']);
    assert.deepEqual(result.nodes.map((n) => n.service).sort(), ['checkout', 'payment']);
  });
});
