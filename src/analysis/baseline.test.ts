import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildBaseline, buildBaselines, endpointKey } from './baseline.js';
import { DEFAULT_THRESHOLDS, ms } from './fixtures.test-support.js';
import type { BaselineSample } from './types.js';

function samples(count: number, durationMs: (i: number) => number, extra: Partial<BaselineSample> = {}): BaselineSample[] {
  return Array.from({ length: count }, (_, i) => ({
    duration_ns: ms(durationMs(i)),
    is_error: false,
    ops: [{ op: 'api: GET', duration_ns: ms(durationMs(i)) }],
    ...extra,
  }));
}

const trustCases: { name: string; normal: number; errors: number; trusted: boolean }[] = [
  { name: '49 non-error traces are not trusted', normal: 49, errors: 0, trusted: false },
  { name: '50 non-error traces are trusted', normal: 50, errors: 0, trusted: true },
  { name: 'error traces do not count toward trust', normal: 49, errors: 30, trusted: false },
];

for (const c of trustCases) {
  test(`baseline trust: ${c.name}`, () => {
    const list = [...samples(c.normal, () => 100), ...samples(c.errors, () => 100, { is_error: true })];
    const baseline = buildBaseline(list, DEFAULT_THRESHOLDS);
    assert.equal(baseline?.trusted, c.trusted);
    assert.equal(baseline?.trace_count, c.normal);
  });
}

test('baseline: p99 is the nearest-rank 99th percentile', () => {
  const baseline = buildBaseline(
    samples(100, (i) => i + 1),
    DEFAULT_THRESHOLDS,
  );
  assert.equal(baseline?.p99_ns, ms(99));
  assert.equal(baseline?.p50_ns, ms(50));
});

test('baseline: traces above 10 x the median are excluded as outliers', () => {
  const list = [...samples(98, () => 100), ...samples(2, () => 60_000)];
  const baseline = buildBaseline(list, DEFAULT_THRESHOLDS);
  assert.equal(baseline?.outlier_cap_ns, ms(1000));
  assert.equal(baseline?.trace_count, 98);
  assert.equal(baseline?.p99_ns, ms(100));
});

test('baseline: a trace exactly at 10 x the median is kept', () => {
  const list = [...samples(98, () => 100), ...samples(2, () => 1000)];
  assert.equal(buildBaseline(list, DEFAULT_THRESHOLDS)?.trace_count, 100);
});

test('baseline: op presence ratio and p95 over the traces that hold the op', () => {
  const list = samples(100, () => 100).map((s, i) => ({
    ...s,
    ops: i < 40 ? [...s.ops, { op: 'db: SELECT', duration_ns: ms(i + 1) }] : s.ops,
  }));
  const op = buildBaseline(list, DEFAULT_THRESHOLDS)?.ops.get('db: SELECT');
  assert.equal(op?.presence, 0.4);
  assert.equal(op?.p95_ns, ms(38));
});

test('baseline: only error traces give no baseline; buildBaselines keys by endpoint', () => {
  const key = endpointKey('shop', 'GET /');
  const built = buildBaselines(
    new Map([
      [key, samples(60, () => 100)],
      [endpointKey('shop', 'broken'), samples(5, () => 1, { is_error: true })],
    ]),
    DEFAULT_THRESHOLDS,
  );
  assert.deepEqual([...built.keys()], [key]);
});
