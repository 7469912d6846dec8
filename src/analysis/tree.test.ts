import assert from 'node:assert/strict';
import { test } from 'node:test';
import { span, spanId } from './fixtures.test-support.js';
import { buildSpanTree, type SpanTree } from './tree.js';

const ids = (tree: SpanTree, list: number[]) => list.map((i) => tree.spans[i]?.name);

const cases = [
  {
    name: 'a complete tree is not incomplete',
    spans: [span({ id: 'r', start: 0, end: 10 }), span({ id: 'a', parent: 'r', start: 1, end: 5 })],
    root: 'r',
    incomplete: false,
    rootChildren: ['a'],
  },
  {
    name: 'a span whose parent never arrived is adopted under the root and flags incomplete',
    spans: [span({ id: 'r', start: 0, end: 10 }), span({ id: 'o', parent: 'gone', start: 2, end: 4 })],
    root: 'r',
    incomplete: true,
    rootChildren: ['o'],
  },
  {
    name: 'several declared roots: the earliest-starting one is the endpoint root',
    spans: [span({ id: 'late', start: 5, end: 10 }), span({ id: 'early', start: 1, end: 3 })],
    root: 'early',
    incomplete: true,
    rootChildren: ['late'],
  },
  {
    name: 'a declared root wins over an earlier-starting orphan (skew cannot move the endpoint)',
    spans: [span({ id: 'r', start: 5, end: 10 }), span({ id: 'o', parent: 'gone', start: 1, end: 3 })],
    root: 'r',
    incomplete: true,
    rootChildren: ['o'],
  },
  {
    name: 'only orphans: the earliest-starting orphan is the endpoint root',
    spans: [span({ id: 'b', parent: 'x', start: 3, end: 9 }), span({ id: 'a', parent: 'y', start: 2, end: 4 })],
    root: 'a',
    incomplete: true,
    rootChildren: ['b'],
  },
  {
    name: 'a parent cycle is cut at its earliest span and flags incomplete',
    spans: [span({ id: 'r', start: 0, end: 10 }), span({ id: 'a', parent: 'b', start: 1, end: 8 }), span({ id: 'b', parent: 'a', start: 2, end: 7 })],
    root: 'r',
    incomplete: true,
    rootChildren: ['a'],
  },
  {
    name: 'a span naming itself as parent is cut',
    spans: [span({ id: 'r', start: 0, end: 10 }), span({ id: 's', parent: 's', start: 1, end: 2 })],
    root: 'r',
    incomplete: true,
    rootChildren: ['s'],
  },
  {
    name: 'a trace that is one cycle still gets a root',
    spans: [span({ id: 'a', parent: 'b', start: 2, end: 8 }), span({ id: 'b', parent: 'a', start: 1, end: 9 })],
    root: 'b',
    incomplete: true,
    rootChildren: ['a'],
  },
];

for (const c of cases) {
  test(`tree: ${c.name}`, () => {
    const tree = buildSpanTree(c.spans);
    assert.equal(tree.spans[tree.rootIndex]?.name, c.root);
    assert.equal(tree.incomplete, c.incomplete);
    assert.deepEqual(ids(tree, tree.children[tree.rootIndex] ?? []), c.rootChildren);
  });
}

test('tree: duplicate span ids keep the first arrival', () => {
  const first = span({ id: 'r', start: 0, end: 10, name: 'first' });
  const replay = { ...span({ id: 'r', start: 0, end: 10, name: 'replay' }) };
  const tree = buildSpanTree([first, replay, span({ id: 'a', parent: 'r', start: 1, end: 2 })]);
  assert.equal(tree.spans.length, 2);
  assert.equal(tree.spans[tree.rootIndex]?.name, 'first');
  assert.equal(tree.incomplete, false);
});

test('tree: a cut cycle keeps the real parent links of its other spans', () => {
  const tree = buildSpanTree([
    span({ id: 'a', parent: 'c', start: 1, end: 9 }),
    span({ id: 'b', parent: 'a', start: 2, end: 8 }),
    span({ id: 'c', parent: 'b', start: 3, end: 7 }),
  ]);
  const index = (id: string) => tree.spans.findIndex((s) => s.spanId === spanId(id));
  assert.equal(tree.parent[index('a')], -1);
  assert.equal(tree.parent[index('b')], index('a'));
  assert.equal(tree.parent[index('c')], index('b'));
});

test('tree: a 10,000-deep chain builds without recursion limits', () => {
  const spans = [span({ id: '0', start: 0, end: 20000 })];
  for (let i = 1; i < 10_000; i++) spans.push(span({ id: i.toString(16), parent: (i - 1).toString(16), start: i, end: 20000 - i }));
  const tree = buildSpanTree(spans);
  assert.equal(tree.incomplete, false);
  assert.equal(tree.children[tree.rootIndex]?.length, 1);
});
