import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EndpointBaseline, OpBaseline } from './baseline.js';
import { baselineDiff } from './baseline-diff.js';
import { DEFAULT_THRESHOLDS, ms } from './fixtures.test-support.js';
import type { OpDuration } from './types.js';

function baseline(ops: Record<string, OpBaseline>, trusted = true): EndpointBaseline {
  return { trace_count: 100, trusted, p50_ns: ms(100), p99_ns: ms(200), outlier_cap_ns: ms(1000), ops: new Map(Object.entries(ops)) };
}
const op = (name: string, durationMs: number): OpDuration => ({ op: name, duration_ns: ms(durationMs) });

const cases: { name: string; ops: OpDuration[]; base: Record<string, OpBaseline>; expected: unknown }[] = [
  {
    name: 'an op never seen in the baseline is new',
    ops: [op('a: x', 1), op('cache: GET', 1)],
    base: { 'a: x': { presence: 1, p95_ns: ms(10) } },
    expected: { new_ops: ['cache: GET'], missing_ops: [], slower_ops: [] },
  },
  {
    name: 'an op in 0.5 % of baseline traces is new; one in 1 % is not',
    ops: [op('rare: x', 1), op('edge: y', 1)],
    base: { 'rare: x': { presence: 0.005, p95_ns: ms(10) }, 'edge: y': { presence: 0.01, p95_ns: ms(10) } },
    expected: { new_ops: ['rare: x'], missing_ops: [], slower_ops: [] },
  },
  {
    name: 'an op in 96 % of baseline traces absent here is missing; one in 95 % is not',
    ops: [],
    base: { 'auth: check': { presence: 0.96, p95_ns: ms(10) }, 'often: y': { presence: 0.95, p95_ns: ms(10) } },
    expected: { new_ops: [], missing_ops: ['auth: check'], slower_ops: [] },
  },
  {
    name: 'slower: the margin rules short ops (p95 10 ms: limit 60 ms)',
    ops: [op('db: q', 61), op('db: r', 60)],
    base: { 'db: q': { presence: 1, p95_ns: ms(10) }, 'db: r': { presence: 1, p95_ns: ms(10) } },
    expected: { new_ops: [], missing_ops: [], slower_ops: [{ op: 'db: q', duration_ns: ms(61), baseline_p95_ns: ms(10) }] },
  },
  {
    name: 'slower: the factor rules long ops (p95 200 ms: limit 400 ms), largest excess first',
    ops: [op('svc: a', 401), op('svc: b', 390), op('svc: c', 900)],
    base: {
      'svc: a': { presence: 1, p95_ns: ms(200) },
      'svc: b': { presence: 1, p95_ns: ms(200) },
      'svc: c': { presence: 1, p95_ns: ms(200) },
    },
    expected: {
      new_ops: [],
      missing_ops: [],
      slower_ops: [
        { op: 'svc: c', duration_ns: ms(900), baseline_p95_ns: ms(200) },
        { op: 'svc: a', duration_ns: ms(401), baseline_p95_ns: ms(200) },
      ],
    },
  },
];

for (const c of cases) {
  test(`baseline diff: ${c.name}`, () => assert.deepEqual(baselineDiff(c.ops, baseline(c.base), DEFAULT_THRESHOLDS), c.expected));
}

test('baseline diff: null without a baseline or with an untrusted one', () => {
  assert.equal(baselineDiff([op('a', 1)], null, DEFAULT_THRESHOLDS), null);
  assert.equal(baselineDiff([op('a', 1)], baseline({}, false), DEFAULT_THRESHOLDS), null);
});
