import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EdgeAccumulator } from './edge-accumulator.js';

const MINUTE_NS = 60_000_000_000n;
const T = 29_396_666n * MINUTE_NS; // a whole minute, above 2^53 ns

test('sums edges per minute and pair, and take() starts over', () => {
  const acc = new EdgeAccumulator(100);
  acc.add(T + 5n, [{ parent: 'a', child: 'b', calls: 2, errors: 1, total_duration_ns: 10n }]);
  acc.add(T + MINUTE_NS - 1n, [
    { parent: 'a', child: 'b', calls: 1, errors: 0, total_duration_ns: 5n },
    { parent: 'a', child: 'c', calls: 1, errors: 1, total_duration_ns: 1n },
  ]);
  acc.add(T + MINUTE_NS, [{ parent: 'a', child: 'b', calls: 1, errors: 0, total_duration_ns: 7n }]);
  const minuteS = Number(T / 1_000_000_000n);
  assert.deepEqual(acc.take(), [
    { minuteS, parent: 'a', child: 'b', calls: 3, errors: 1, durationNsSum: 15n },
    { minuteS, parent: 'a', child: 'c', calls: 1, errors: 1, durationNsSum: 1n },
    { minuteS: minuteS + 60, parent: 'a', child: 'b', calls: 1, errors: 0, durationNsSum: 7n },
  ]);
  assert.equal(acc.size, 0);
  assert.deepEqual(acc.take(), []);
});

test('past maxKeys new keys are dropped and counted; known keys still add up', () => {
  const acc = new EdgeAccumulator(1);
  assert.equal(acc.add(T, [{ parent: 'a', child: 'b', calls: 1, errors: 0, total_duration_ns: 1n }]), 0);
  assert.equal(
    acc.add(T, [
      { parent: 'a', child: 'c', calls: 1, errors: 0, total_duration_ns: 1n },
      { parent: 'a', child: 'b', calls: 1, errors: 0, total_duration_ns: 1n },
    ]),
    1,
  );
  assert.deepEqual(
    acc.take().map((r) => [r.child, r.calls]),
    [['b', 2]],
  );
});
