import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatCountOf, formatDuration, formatPercent, formatRate, formatSeconds, severityName } from './format.js';
import { safeNext } from './next.js';
import { alignSeries, countSplits, paddedTimeRange } from './series.js';
import { sinceSecs, toUntilParam, untilMs, withWindow } from './window.js';

describe('formatDuration', () => {
  it('uses human units, never raw ns beyond a microsecond', () => {
    assert.equal(formatDuration(850), '850 ns');
    assert.equal(formatDuration(1_500), '1.5 µs');
    assert.equal(formatDuration(12_345_678), '12.3 ms');
    assert.equal(formatDuration(4_070_000_000), '4.07 s');
    assert.equal(formatDuration(125e9), '2 min 5 s');
    assert.equal(formatDuration(3 * 3600e9 + 20 * 60e9), '3 h 20 min');
    assert.equal(formatDuration(999_960), '1 ms');
    assert.equal(formatDuration(999.7), '1 µs');
    assert.equal(formatSeconds(0), '0 s');
    assert.equal(formatSeconds(2.4), '2.4 s');
  });
  it('formats ratios and severities', () => {
    assert.equal(formatPercent(0.12), '12 %');
    assert.equal(formatPercent(0.0001), '<0.1 %');
    assert.equal(severityName(17), 'ERROR');
    assert.equal(severityName(9, 'Information'), 'Information');
  });
});

describe('counts and rates', () => {
  it('uses the singular for exactly one', () => {
    assert.equal(formatCountOf(1, 'call'), '1 call');
    assert.equal(formatCountOf(0, 'call'), '0 calls');
    assert.equal(formatCountOf(2, 'alert'), '2 alerts');
    assert.equal(formatCountOf(1, 'story', 'stories'), '1 story');
    assert.equal(formatCountOf(3, 'story', 'stories'), '3 stories');
  });
  it('shows a small rate in the largest unit where it reads at least 1, never "0/s"', () => {
    assert.equal(formatRate(12.5), '12.5/s');
    assert.equal(formatRate(1), '1/s');
    assert.equal(formatRate(0.999), '1/s');
    assert.equal(formatRate(0.5), '30/min');
    assert.equal(formatRate(3 / 3600), '3/h');
    assert.equal(formatRate(1 / 86400), '0.04/h');
    assert.equal(formatRate(1 / (7 * 86400 * 10)), '< 0.01/h');
    assert.equal(formatRate(0), '0/s');
    assert.equal(formatRate(Number.NaN), '–');
  });
});

describe('window parameters', () => {
  it('reads since and until as the contract writes them', () => {
    assert.equal(sinceSecs('15m'), 900);
    assert.equal(sinceSecs('7d'), 604800);
    assert.equal(sinceSecs('1w'), null);
    assert.equal(untilMs('1700000000'), 1_700_000_000_000);
    assert.equal(untilMs('2026-11-22T06:00:00+01:00'), Date.parse('2026-11-22T05:00:00Z'));
    assert.equal(untilMs(''), null);
    assert.equal(toUntilParam(Date.parse('2026-11-22T05:00:00.750Z')), '2026-11-22T05:00:00Z');
  });
  it('carries the window between pages', () => {
    assert.equal(withWindow('/map', new URLSearchParams('since=6h&kind=error')), '/map?since=6h');
    assert.equal(withWindow('/logs/alerts?service=a', new URLSearchParams('until=1700000000')), '/logs/alerts?service=a&until=1700000000');
    assert.equal(withWindow('/', new URLSearchParams('kind=error')), '/');
  });
});

describe('safeNext', () => {
  it('keeps paths inside the app and sends everything else to /', () => {
    assert.equal(safeNext('/map?since=6h'), '/map?since=6h');
    for (const bad of ['', 'https://evil.example', '//evil.example', '/\\evil.example', '/api/v1/stories/x', '/login?next=/'])
      assert.equal(safeNext(bad), '/', bad);
  });
});

describe('alignSeries', () => {
  it('places sparse buckets on the window grid and fills the gaps', () => {
    const { xs, values } = alignSeries(
      [
        [
          [120, 5],
          [300, 2],
        ],
      ],
      100,
      360,
      60,
      0,
    );
    assert.deepEqual(xs, [60, 120, 180, 240, 300]);
    assert.deepEqual(values[0], [0, 5, 0, 0, 2]);
    assert.deepEqual(alignSeries([[[180, 1]]], 120, 240, 60, null).values[0], [null, 1]);
  });
});

describe('chart scales', () => {
  it('pads the time range by half a bucket so bars beside the first and last point show', () => {
    assert.deepEqual(paddedTimeRange(600, 3600, 60), [570, 3630]);
    assert.deepEqual(paddedTimeRange(600, 600, 60), [570, 630]);
    assert.deepEqual(paddedTimeRange(600, 3600, undefined), [600, 3600]);
    assert.deepEqual(paddedTimeRange(null, null, 60), [null, null]);
  });
  it('puts count ticks on whole numbers only, so labels never repeat', () => {
    assert.deepEqual(countSplits(0, 1.05, 0.5), [0, 1]);
    assert.deepEqual(countSplits(0, 1, 0.2), [0, 1]);
    assert.deepEqual(countSplits(0, 3.15, 0.5), [0, 1, 2, 3]);
    assert.deepEqual(countSplits(0, 10.5, 2), [0, 2, 4, 6, 8, 10]);
    assert.deepEqual(countSplits(0, 147, 30), [0, 50, 100]);
    assert.deepEqual(countSplits(-0.5, 2, 1), [0, 1, 2]);
    assert.ok(Object.is(countSplits(-0.5, 2, 1)[0], 0));
  });
});
