import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EndpointBaseline } from './baseline.js';
import { BaselineCarry } from './baseline-carry.js';
import { DEFAULT_THRESHOLDS, ms } from './fixtures.test-support.js';

const KEY = 'shop\u0000GET /orders';
const MINUTE_MS = 60_000;

function baseline(p99Ms: number, trusted = true): EndpointBaseline {
  return { trace_count: trusted ? 100 : 10, trusted, p50_ns: ms(p99Ms / 2), p99_ns: ms(p99Ms), outlier_cap_ns: ms(p99Ms * 5), ops: new Map() };
}

/** A carry on a 60-minute window with a clock the test moves. */
function setup() {
  let nowMs = 1_000_000;
  const carry = new BaselineCarry({ windowMinutes: 60, thresholds: DEFAULT_THRESHOLDS, clockMs: () => nowMs });
  return {
    carry,
    at(minutes: number) {
      nowMs = 1_000_000 + minutes * MINUTE_MS;
    },
    p99(fresh: EndpointBaseline | undefined): number | null {
      const map = new Map<string, EndpointBaseline>();
      if (fresh !== undefined) map.set(KEY, fresh);
      const effective = carry.update(map).get(KEY);
      return effective === undefined ? null : Number(effective.p99_ns) / 1e6;
    },
  };
}

test('carry: a fresh trusted baseline is used as is', () => {
  const s = setup();
  assert.equal(s.p99(baseline(300)), 300);
  assert.equal(s.carry.carriedSinceMs(KEY), null);
});

test('carry: a fresh baseline within the slow limit of the adopted one is accepted (no carry)', () => {
  const s = setup();
  s.p99(baseline(300));
  s.at(1);
  // limit: max(300 x 1.5, 300 + 100) = 450 ms
  assert.equal(s.p99(baseline(450)), 450);
  assert.equal(s.carry.carriedSinceMs(KEY), null);
});

test('carry: a polluted fresh baseline (p99 over the slow limit) is replaced by the adopted one', () => {
  const s = setup();
  s.p99(baseline(300));
  s.at(1);
  assert.equal(s.p99(baseline(451)), 300);
  assert.notEqual(s.carry.carriedSinceMs(KEY), null);
});

test('carry: expires after 2 windows (120 minutes) of a lasting slowdown, which becomes normal', () => {
  const s = setup();
  s.p99(baseline(300));
  s.at(1);
  assert.equal(s.p99(baseline(2000)), 300); // carry starts at minute 1
  s.at(120);
  assert.equal(s.p99(baseline(2000)), 300); // 119 minutes carried
  s.at(121);
  assert.equal(s.p99(baseline(2000)), 2000); // 120 minutes: expired, the slowdown is the new normal
  assert.equal(s.carry.carriedSinceMs(KEY), null);
  s.at(122);
  assert.equal(s.p99(baseline(2100)), 2100); // judged against the new normal from now on
});

test('carry: recovery during a carry ends it, and a later slowdown gets a fresh 120 minutes', () => {
  const s = setup();
  s.p99(baseline(300));
  s.at(10);
  assert.equal(s.p99(baseline(2000)), 300);
  s.at(100);
  assert.equal(s.p99(baseline(320)), 320);
  assert.equal(s.carry.carriedSinceMs(KEY), null);
  s.at(110);
  assert.equal(s.p99(baseline(2000)), 320);
  s.at(229);
  assert.equal(s.p99(baseline(2000)), 320); // 119 minutes into the second carry
});

test('carry: an endpoint that went quiet keeps its baseline for 120 minutes, then loses it', () => {
  const s = setup();
  s.p99(baseline(300));
  s.at(5);
  assert.equal(s.p99(undefined), 300);
  s.at(60);
  assert.equal(s.p99(baseline(280, false)), 300);
  s.at(125);
  assert.equal(s.p99(undefined), null);
  assert.equal(s.carry.carriedSinceMs(KEY), null);
});

test('carry: an endpoint never trusted has nothing to carry', () => {
  const s = setup();
  assert.equal(s.p99(baseline(300, false)), 300);
  s.at(1);
  assert.equal(s.carry.update(new Map()).get(KEY), undefined);
  assert.equal(s.carry.get(KEY), null);
});
