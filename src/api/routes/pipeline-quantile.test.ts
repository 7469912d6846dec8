import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { histogramQuantile, parseLe } from './pipeline-quantile.js';

const INF = Number.POSITIVE_INFINITY;
const close = (actual: number | null, expected: number) => assert.ok(actual !== null && Math.abs(actual - expected) < 1e-12, `${actual} != ${expected}`);

describe('histogram quantile', () => {
  it('interpolates inside the bucket that holds the rank, from 0 for the first bucket', () => {
    const buckets = [
      { le: 0.1, count: 4 },
      { le: 1, count: 8 },
      { le: INF, count: 8 },
    ];
    close(histogramQuantile(0.25, buckets), 0.05);
    close(histogramQuantile(0.5, buckets), 0.1);
    close(histogramQuantile(0.75, buckets), 0.1 + 0.9 * 0.5);
  });

  it('takes buckets in any order', () => {
    close(
      histogramQuantile(0.75, [
        { le: INF, count: 8 },
        { le: 1, count: 8 },
        { le: 0.1, count: 4 },
      ]),
      0.55,
    );
  });

  it('answers the largest finite bound for a rank in +Inf', () => {
    assert.equal(
      histogramQuantile(0.99, [
        { le: 0.1, count: 1 },
        { le: 1, count: 2 },
        { le: INF, count: 10 },
      ]),
      1,
    );
  });

  it('is null without observations, without +Inf, or with +Inf alone', () => {
    assert.equal(
      histogramQuantile(0.5, [
        { le: 0.1, count: 0 },
        { le: INF, count: 0 },
      ]),
      null,
    );
    assert.equal(
      histogramQuantile(0.5, [
        { le: 0.1, count: 3 },
        { le: 1, count: 5 },
      ]),
      null,
    );
    assert.equal(histogramQuantile(0.5, [{ le: INF, count: 5 }]), null);
    assert.equal(histogramQuantile(0.5, []), null);
  });

  it('keeps cumulative counts from falling (increases of separate series can disagree after a restart)', () => {
    // 0.1 says 6 but 1 says 5: read as 6 at or below 1, so rank 6.5 is a quarter into (1, 2], not half.
    close(
      histogramQuantile(0.8125, [
        { le: 0.1, count: 6 },
        { le: 1, count: 5 },
        { le: 2, count: 8 },
        { le: INF, count: 8 },
      ]),
      1.25,
    );
  });

  it('answers a first bound at or below 0 as is', () => {
    assert.equal(
      histogramQuantile(0.5, [
        { le: -1, count: 2 },
        { le: INF, count: 2 },
      ]),
      -1,
    );
  });

  it('parses le labels', () => {
    assert.equal(parseLe('+Inf'), INF);
    assert.equal(parseLe('0.25'), 0.25);
    assert.equal(parseLe('1e-3'), 0.001);
    assert.ok(Number.isNaN(parseLe('')));
    assert.ok(Number.isNaN(parseLe('x')));
  });
});
