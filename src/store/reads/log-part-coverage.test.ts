import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bucketCoverage, logPart, meetsBuckets, partsAdded, type LogPart } from './log-part-coverage.js';

const S = 1_000_000_000n;

function part(name: string, fromSecs: number, toSecs: number): LogPart {
  const found = logPart(name, BigInt(fromSecs) * S, BigInt(toSecs) * S);
  assert.ok(found !== null, name);
  return found;
}

describe('logPart', () => {
  it('reads partition and blocks from a part name, with or without a mutation', () => {
    assert.deepEqual(logPart('20261127_10_12_1_18', 1n, 2n), { name: '20261127_10_12_1_18', partitionId: '20261127', minBlock: 10n, maxBlock: 12n, minTsNs: 1n, maxTsNs: 2n });
    assert.equal(logPart('20261127_7_7_0', 1n, 2n)?.maxBlock, 7n);
    assert.equal(logPart('all', 1n, 2n), null);
    assert.equal(logPart('2026_11_27_1_2_0', 1n, 2n), null, 'a partition id with underscores is not a date partition');
  });
});

describe('bucketCoverage', () => {
  it('sorts the buckets parts meet into those one part meets and those several meet', () => {
    // 60 s buckets over [0, 600): parts over 0..119, 100..239 (overlapping bucket 1), 400..450.
    const parts = [part('d_1_1_0', 0, 119), part('d_2_2_0', 100, 239), part('d_3_3_0', 400, 450)];
    const coverage = bucketCoverage(parts, 0n, 600n * S, 60n * S);
    assert.deepEqual(coverage.single, [0n, 2n, 3n, 6n, 7n]);
    assert.deepEqual(coverage.shared, [1n]);
  });

  it('counts only the window: parts outside it or reaching past it are clipped', () => {
    const parts = [part('d_1_1_0', 0, 1000), part('d_2_2_0', 590, 700)];
    const coverage = bucketCoverage(parts, 120n * S, 600n * S, 60n * S);
    assert.deepEqual(coverage.single, [2n, 3n, 4n, 5n, 6n, 7n, 8n]);
    assert.deepEqual(coverage.shared, [9n], 'the window ends before 600 s: bucket 10 is outside');
    assert.deepEqual(bucketCoverage(parts, 600n * S, 600n * S, 60n * S), { single: [], shared: [] });
  });

  it('puts a bucket two parts reach only at its two ends among the shared ones', () => {
    const coverage = bucketCoverage([part('d_1_1_0', 0, 60), part('d_2_2_0', 119, 200)], 0n, 240n * S, 60n * S);
    assert.deepEqual(coverage.shared, [1n]);
  });
});

describe('partsAdded', () => {
  const before = [part('20261127_1_5_1', 0, 100), part('20261127_6_6_0', 90, 120), part('20261126_1_9_2', -90000, -1)];

  it('leaves out parts merged or mutated from parts seen before', () => {
    const after = [part('20261127_1_6_2', 0, 120), part('20261126_1_9_2_30', -90000, -1)];
    assert.deepEqual(partsAdded(before, after), []);
  });

  it('finds an inserted part, and a merge that took one in, by a block above the partition\'s highest', () => {
    const inserted = part('20261127_7_7_0', 10, 20);
    const mergedIn = part('20261127_1_8_2', 0, 130);
    const newDay = part('20261128_1_1_0', 90000, 90001);
    assert.deepEqual(partsAdded(before, [inserted, mergedIn, newDay]), [inserted, mergedIn, newDay]);
  });
});

describe('meetsBuckets', () => {
  it('says whether a part may hold a stamp in a listed bucket', () => {
    const parts = [part('d_7_7_0', 130, 170)];
    assert.equal(meetsBuckets(parts, [0n, 1n], 60n * S), false);
    assert.equal(meetsBuckets(parts, [2n], 60n * S), true);
    assert.equal(meetsBuckets(parts, [], 60n * S), false);
    assert.equal(meetsBuckets([part('d_8_8_0', 0, 6000)], [50n], 60n * S), true, 'a listed bucket inside a long part');
  });
});
