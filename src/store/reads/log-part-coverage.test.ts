import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { distinctRanges, EDGE_NS, logPart, overlapRanges, partsAdded, reachesOutside, type LogPart, type StampRange } from './log-part-coverage.js';

const S = 1_000_000_000n;

function part(name: string, fromSecs: number, toSecs: number): LogPart {
  const found = logPart(name, BigInt(fromSecs) * S, BigInt(toSecs) * S);
  assert.ok(found !== null, name);
  return found;
}

describe('logPart', () => {
  it('reads partition and blocks from a part name, with or without a mutation', () => {
    assert.deepEqual(logPart('20261127_10_12_1_18', 1n, 2n), {
      name: '20261127_10_12_1_18',
      partitionId: '20261127',
      minBlock: 10n,
      maxBlock: 12n,
      minTsNs: 1n,
      maxTsNs: 2n,
    });
    assert.equal(logPart('20261127_7_7_0', 1n, 2n)?.maxBlock, 7n);
    assert.equal(logPart('all', 1n, 2n), null);
    assert.equal(logPart('2026_11_27_1_2_0', 1n, 2n), null, 'a partition id with underscores is not a date partition');
  });
});

/** Ranges in whole seconds, for reading. */
const secs = (ranges: StampRange[]): [number, number][] => ranges.map((r) => [Number(r.fromNs / S), Number(r.toNs / S)]);
const NO_EDGE = 10_000n * S;

describe('overlapRanges', () => {
  it('finds the stamps two or more parts reach; parts that only touch do not overlap', () => {
    // 0..119 and 100..239 overlap over 100..119; 240..300 starts just past 239; 280..290 inside it.
    const parts = [part('d_1_1_0', 0, 119), part('d_2_2_0', 100, 239), part('d_3_3_0', 240, 300), part('d_4_4_0', 280, 290)];
    assert.deepEqual(secs(overlapRanges(parts, 0n, 600n * S, NO_EDGE, 8)), [
      [100, 119],
      [280, 290],
    ]);
    assert.deepEqual(overlapRanges([part('d_1_1_0', 0, 100), part('d_2_2_0', 200, 300)], 0n, 600n * S, NO_EDGE, 8), [], 'separate hours: none');
  });

  it('adds every stamp from the edge on, and clips to the window', () => {
    const parts = [part('d_1_1_0', 0, 1000), part('d_2_2_0', 590, 700)];
    const ranges = overlapRanges(parts, 120n * S, 600n * S, 550n * S, 8);
    assert.deepEqual(ranges, [{ fromNs: 550n * S, toNs: 600n * S - 1n }], 'the overlap from 590 s joins the edge; the window ends before 600 s');
    assert.deepEqual(overlapRanges(parts, 600n * S, 600n * S, 0n, 8), []);
  });

  it('joins the closest ranges past the limit, so more rows count by distinct id, never fewer', () => {
    const parts = [
      part('d_1_1_0', 0, 10),
      part('d_2_2_0', 5, 20), // overlap 5..10
      part('d_3_3_0', 100, 110),
      part('d_4_4_0', 108, 120), // 108..110
      part('d_5_5_0', 112, 130),
      part('d_6_6_0', 115, 140), // 112..130, with d_4 and then d_6
    ];
    assert.deepEqual(secs(overlapRanges(parts, 0n, 600n * S, NO_EDGE, 3)), [
      [5, 10],
      [108, 110],
      [112, 130],
    ]);
    assert.deepEqual(secs(overlapRanges(parts, 0n, 600n * S, NO_EDGE, 2)), [
      [5, 10],
      [108, 130],
    ]);
    assert.deepEqual(secs(overlapRanges(parts, 0n, 600n * S, NO_EDGE, 1)), [[5, 130]]);
  });
});

describe('distinctRanges', () => {
  it('keeps the last minutes before the newest stamp, or before the window end when a log is stamped past it', () => {
    const hour = 3600n * S;
    const parts = [part('d_1_1_0', 0, 3000), part('d_2_2_0', 3001, 7000)];
    assert.deepEqual(distinctRanges(parts, 0n, 2n * hour), [{ fromNs: 7000n * S - EDGE_NS, toNs: 2n * hour - 1n }]);
    const ahead = [...parts, part('d_3_3_0', 86_400, 86_400)];
    assert.deepEqual(distinctRanges(ahead, 0n, 2n * hour), [{ fromNs: 2n * hour - EDGE_NS, toNs: 2n * hour - 1n }]);
  });
});

describe('reachesOutside', () => {
  const ranges = [
    { fromNs: 100n * S, toNs: 200n * S },
    { fromNs: 300n * S, toNs: 400n * S },
  ];
  it('says whether a part reaches a stamp of the window outside the ranges', () => {
    assert.equal(reachesOutside([part('d_7_7_0', 120, 180)], ranges, 0n, 1000n * S), false);
    assert.equal(reachesOutside([part('d_7_7_0', 350, 400)], ranges, 0n, 1000n * S), false);
    assert.equal(reachesOutside([part('d_7_7_0', 150, 250)], ranges, 0n, 1000n * S), true);
    assert.equal(reachesOutside([part('d_7_7_0', 50, 150)], ranges, 0n, 1000n * S), true);
    assert.equal(reachesOutside([part('d_7_7_0', 390, 450)], ranges, 0n, 1000n * S), true);
    assert.equal(reachesOutside([part('d_7_7_0', 390, 450)], ranges, 0n, 400n * S + 1n), false, 'past the window');
    assert.equal(reachesOutside([part('d_7_7_0', 10, 20)], [], 0n, 1000n * S), true);
    assert.equal(reachesOutside([], ranges, 0n, 1000n * S), false);
  });
});

describe('partsAdded', () => {
  const before = [part('20261127_1_5_1', 0, 100), part('20261127_6_6_0', 90, 120), part('20261126_1_9_2', -90000, -1)];

  it('leaves out parts merged or mutated from parts seen before', () => {
    const after = [part('20261127_1_6_2', 0, 120), part('20261126_1_9_2_30', -90000, -1)];
    assert.deepEqual(partsAdded(before, after), []);
  });

  it("finds an inserted part, and a merge that took one in, by a block above the partition's highest", () => {
    const inserted = part('20261127_7_7_0', 10, 20);
    const mergedIn = part('20261127_1_8_2', 0, 130);
    const newDay = part('20261128_1_1_0', 90000, 90001);
    assert.deepEqual(partsAdded(before, [inserted, mergedIn, newDay]), [inserted, mergedIn, newDay]);
  });
});
