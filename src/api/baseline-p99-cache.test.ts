import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createBaselineP99Cache } from './baseline-p99-cache.js';
import { nodeHealth } from './routes/service-map.js';

const MINUTE_MS = 60_000;
const T0 = Date.UTC(2026, 10, 22, 10, 0, 0);

describe('baseline p99 cache', () => {
  it('loads the 24 h up to the earlier of window end and now, floored to the minute, once per minute', async () => {
    const loads: { fromMs: number; toMs: number }[] = [];
    const cache = createBaselineP99Cache(async (range) => {
      loads.push(range);
      return new Map([['svc', loads.length]]);
    });
    assert.equal((await cache.get(T0 + 59_000, T0 + 59_000, 15)).get('svc'), 1);
    assert.equal((await cache.get(T0 + 10_000, T0 + 30_000, 15)).get('svc'), 1, 'same minute: cached');
    assert.equal((await cache.get(T0 + 5 * MINUTE_MS, T0 + 20_000, 15)).get('svc'), 1, 'a window ending later is judged at now');
    assert.equal((await cache.get(T0 + MINUTE_MS, T0 + MINUTE_MS, 15)).get('svc'), 2, 'next minute: reloaded');
    assert.equal((await cache.get(T0 - 60 * MINUTE_MS + 1, T0 + MINUTE_MS, 15)).get('svc'), 3, 'a past window end has its own minute');
    assert.deepEqual(loads, [
      { fromMs: T0 - 86_400_000, toMs: T0 },
      { fromMs: T0 + MINUTE_MS - 86_400_000, toMs: T0 + MINUTE_MS },
      { fromMs: T0 - 60 * MINUTE_MS - 86_400_000, toMs: T0 - 60 * MINUTE_MS },
    ]);
  });

  it('shares one load between concurrent requests and forgets a failed one', async () => {
    let calls = 0;
    const cache = createBaselineP99Cache(async () => {
      calls += 1;
      if (calls === 1) throw new Error('storage down');
      return new Map();
    });
    const [first, second] = await Promise.allSettled([cache.get(T0, T0, 15), cache.get(T0, T0, 15)]);
    assert.equal(first.status, 'rejected');
    assert.equal(second.status, 'rejected');
    assert.equal(calls, 1);
    await cache.get(T0, T0, 15);
    assert.equal(calls, 2, 'the failure was not cached');
  });
});

describe('node health', () => {
  const cases: [number, number, number, string][] = [
    [0.05, 1, 1, 'error'],
    [0.0499, 1, 1, 'ok'],
    [0.5, 100, 1, 'error'],
    [0, 201, 100, 'slow'],
    [0, 200, 100, 'ok'],
    [0, 1_000, 0, 'ok'],
  ];
  for (const [errorRatio, p99Ns, baselineNs, health] of cases) {
    it(`error ratio ${errorRatio}, p99 ${p99Ns} against ${baselineNs}: ${health}`, () => assert.equal(nodeHealth(errorRatio, p99Ns, baselineNs), health));
  }
});
