import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Span } from '../../api/types.js';
import { ancestorIds, buildTree, stepIndex, visibleRows } from './tree.js';

function span(id: string, parent: string, start: number, duration = 10, status: Span['status'] = 'unset'): Span {
  return {
    span_id: id,
    parent_span_id: parent,
    service_name: `svc-${id}`,
    span_name: `op-${id}`,
    kind: 'internal',
    start_ns: start,
    duration_ns: duration,
    status,
    status_message: '',
    attrs: [],
    resource: [],
    events: [],
    self_ns: 0,
  };
}

describe('buildTree', () => {
  it('orders parents before children and children by start time', () => {
    const tree = buildTree([span('c2', 'root', 30), span('root', '', 0, 100), span('c1', 'root', 10), span('g1', 'c1', 12)]);
    assert.deepEqual(
      tree.rows.map((r) => [r.span.span_id, r.depth]),
      [
        ['root', 0],
        ['c1', 1],
        ['g1', 2],
        ['c2', 1],
      ],
    );
    assert.equal(tree.rows[0].descendants, 3);
    assert.equal(tree.rows[1].subtreeEnd, 3);
    assert.equal(tree.startNs, 0);
    assert.equal(tree.endNs, 100);
  });

  it('shows spans whose parent never arrived as roots, and cuts cycles without losing spans', () => {
    const tree = buildTree([span('a', 'b', 0), span('b', 'a', 5), span('orphan', 'missing', 1), span('self', 'self', 2)]);
    assert.equal(tree.rows.length, 4);
    assert.deepEqual(new Set(tree.rows.map((r) => r.span.span_id)), new Set(['a', 'b', 'orphan', 'self']));
  });

  it('handles a 10,000-deep chain without recursion', () => {
    const spans = Array.from({ length: 10_000 }, (_, i) => span(String(i), i === 0 ? '' : String(i - 1), i));
    const tree = buildTree(spans);
    assert.equal(tree.rows.length, 10_000);
    assert.equal(tree.rows[9_999].depth, 9_999);
    assert.equal(tree.rows[0].descendants, 9_999);
  });

  it('counts error spans, including spans with an exception event', () => {
    const withException = { ...span('x', 'root', 1), events: [{ ts_ns: 1, name: 'exception', attrs: [] }] };
    const tree = buildTree([span('root', '', 0, 10, 'error'), withException, span('ok', 'root', 2)]);
    assert.equal(tree.errorCount, 2);
  });
});

describe('visibleRows and ancestorIds', () => {
  const tree = buildTree([span('root', '', 0, 100), span('c1', 'root', 10), span('g1', 'c1', 12), span('g2', 'c1', 13), span('c2', 'root', 30)]);
  it('skips a folded subtree', () => {
    assert.deepEqual(
      visibleRows(tree, new Set(['c1'])).map((i) => tree.rows[i].span.span_id),
      ['root', 'c1', 'c2'],
    );
    assert.deepEqual(
      visibleRows(tree, new Set(['root'])).map((i) => tree.rows[i].span.span_id),
      ['root'],
    );
  });
  it('lists the ancestors to unfold for a linked span', () => {
    assert.deepEqual(ancestorIds(tree, 'g2'), ['c1', 'root']);
  });
});

describe('stepIndex', () => {
  it('steps forward and back through matches from the selected row, wrapping around', () => {
    const hits = [2, 5, 9];
    assert.equal(stepIndex(hits, -1, 1), 2);
    assert.equal(stepIndex(hits, 5, 1), 9);
    assert.equal(stepIndex(hits, 9, 1), 2);
    assert.equal(stepIndex(hits, 5, -1), 2);
    assert.equal(stepIndex(hits, 2, -1), 9);
    assert.equal(stepIndex([], 3, 1), -1);
  });
});
