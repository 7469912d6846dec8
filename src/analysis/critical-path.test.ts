import assert from 'node:assert/strict';
import { test } from 'node:test';
import { criticalPath } from './critical-path.js';
import { atMs, ms, span, type SpanSpec } from './fixtures.test-support.js';
import { buildSpanTree } from './tree.js';

/** Segments as [name, startMs, endMs] relative to T0. */
function segmentsOf(specs: SpanSpec[]): [string, number, number][] {
  const result = criticalPath(buildSpanTree(specs.map(span)));
  return result.segments.map((s) => [s.name, Number(s.start_ns - atMs(0)) / 1e6, Number(s.end_ns - atMs(0)) / 1e6]);
}

const cases: { name: string; spans: SpanSpec[]; segments: [string, number, number][] }[] = [
  {
    name: 'a lone root is its own path',
    spans: [{ id: 'r', start: 0, end: 100 }],
    segments: [['r', 0, 100]],
  },
  {
    name: 'sequential children are both on the path, in time order',
    spans: [
      { id: 'r', start: 0, end: 100 },
      { id: 'a', parent: 'r', start: 10, end: 40 },
      { id: 'b', parent: 'r', start: 50, end: 90 },
    ],
    segments: [
      ['r', 0, 10],
      ['a', 10, 40],
      ['r', 40, 50],
      ['b', 50, 90],
      ['r', 90, 100],
    ],
  },
  {
    name: 'of parallel children the one that ended last is followed',
    spans: [
      { id: 'r', start: 0, end: 100 },
      { id: 'fast', parent: 'r', start: 10, end: 30 },
      { id: 'slow', parent: 'r', start: 10, end: 80 },
    ],
    segments: [
      ['r', 0, 10],
      ['slow', 10, 80],
      ['r', 80, 100],
    ],
  },
  {
    name: 'the walk recurses into grandchildren',
    spans: [
      { id: 'r', start: 0, end: 100 },
      { id: 'a', parent: 'r', start: 10, end: 90 },
      { id: 'db', parent: 'a', start: 20, end: 70 },
    ],
    segments: [
      ['r', 0, 10],
      ['a', 10, 20],
      ['db', 20, 70],
      ['a', 70, 90],
      ['r', 90, 100],
    ],
  },
  {
    name: 'a child ending 3 ms after its parent (skew within 5 ms) counts, clamped to the parent end',
    spans: [
      { id: 'r', start: 0, end: 100 },
      { id: 'skewed', parent: 'r', start: 20, end: 103 },
    ],
    segments: [
      ['r', 0, 20],
      ['skewed', 20, 100],
    ],
  },
  {
    name: 'a child ending 5 ms after its parent still counts',
    spans: [
      { id: 'r', start: 0, end: 100 },
      { id: 'skewed', parent: 'r', start: 20, end: 105 },
    ],
    segments: [
      ['r', 0, 20],
      ['skewed', 20, 100],
    ],
  },
  {
    name: 'a child ending 6 ms after its parent (over the tolerance) is not on the path',
    spans: [
      { id: 'r', start: 0, end: 100 },
      { id: 'async', parent: 'r', start: 20, end: 106 },
    ],
    segments: [['r', 0, 100]],
  },
  {
    name: 'a child starting before its parent is clamped to the parent start',
    spans: [
      { id: 'r', start: 10, end: 100 },
      { id: 'early', parent: 'r', start: 5, end: 50 },
    ],
    segments: [
      ['early', 10, 50],
      ['r', 50, 100],
    ],
  },
  {
    name: 'an adopted orphan can be on the path',
    spans: [
      { id: 'r', start: 0, end: 100 },
      { id: 'orphan', parent: 'missing', start: 30, end: 95 },
    ],
    segments: [
      ['r', 0, 30],
      ['orphan', 30, 95],
      ['r', 95, 100],
    ],
  },
];

for (const c of cases) {
  test(`critical path: ${c.name}`, () => assert.deepEqual(segmentsOf(c.spans), c.segments));
}

test('critical path: self time per span and the top 3 contributors, largest first', () => {
  const tree = buildSpanTree(
    [
      { id: 'r', start: 0, end: 100 },
      { id: 'a', parent: 'r', start: 5, end: 15 },
      { id: 'b', parent: 'r', start: 15, end: 45 },
      { id: 'c', parent: 'r', start: 45, end: 65 },
      { id: 'd', parent: 'r', start: 65, end: 99 },
    ].map(span),
  );
  const result = criticalPath(tree);
  assert.deepEqual(
    result.top.map((t) => [t.name, t.self_time_ns]),
    [
      ['d', ms(34)],
      ['b', ms(30)],
      ['c', ms(20)],
    ],
  );
  const total = [...result.selfTimeNs.values()].reduce((sum, v) => sum + v, 0n);
  assert.equal(total, ms(100));
});

test('critical path: a 10,000-deep chain is walked without recursion', () => {
  const specs: SpanSpec[] = [{ id: '0', start: 0, end: 20_000 }];
  for (let i = 1; i < 10_000; i++) specs.push({ id: i.toString(16), parent: (i - 1).toString(16), start: i, end: 20_000 - i });
  const result = criticalPath(buildSpanTree(specs.map(span)));
  assert.equal(result.segments.length, 2 * 10_000 - 1);
  assert.equal(result.segments[0]?.start_ns, atMs(0));
  assert.equal(result.segments.at(-1)?.end_ns, atMs(20_000));
});
