import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backoffMs, MAX_RETRY_DELAY_MS, retryAfterMs } from './backoff.js';
import { Breaker, FAILURES_TO_OPEN } from './breaker.js';
import { planDelivery } from './plan.js';
import { safeErrorReason } from './send.js';

describe('backoff and Retry-After', () => {
  it('doubles from 1 s and caps at 300 s', () => {
    assert.deepEqual([1, 2, 3, 4, 5, 8, 9, 10, 50].map(backoffMs), [1_000, 2_000, 4_000, 8_000, 16_000, 128_000, 256_000, 300_000, 300_000]);
    assert.equal(MAX_RETRY_DELAY_MS, 300_000);
  });

  it('reads delay seconds and HTTP dates, clamped to 0..300 s', () => {
    const now = Date.UTC(2026, 10, 22, 8, 0, 0);
    assert.equal(retryAfterMs('7', now), 7_000);
    assert.equal(retryAfterMs(' 0 ', now), 0);
    assert.equal(retryAfterMs(new Date(now + 90_000).toUTCString(), now), 90_000);
    assert.equal(retryAfterMs(new Date(now - 90_000).toUTCString(), now), 0);
    assert.equal(retryAfterMs('86400', now), 300_000);
    assert.equal(retryAfterMs(null, now), undefined);
    assert.equal(retryAfterMs('soon', now), undefined);
    assert.equal(retryAfterMs('-5', now), undefined);
  });
});

describe('breaker', () => {
  it('opens on the fifth failure in a row, for the cooldown, and a success closes it', () => {
    let now = 1_000;
    const breaker = new Breaker(300_000, () => now);
    for (let i = 1; i < FAILURES_TO_OPEN; i++) assert.equal(breaker.recordFailure(), false);
    assert.equal(breaker.isOpen(), false);
    assert.equal(breaker.recordFailure(), true);
    assert.equal(breaker.isOpen(), true);
    now += 299_999;
    assert.equal(breaker.isOpen(), true);
    now += 1;
    assert.equal(breaker.isOpen(), false);
    // A fresh count after the cooldown: one failure does not reopen it.
    assert.equal(breaker.recordFailure(), false);
    for (let i = 2; i <= FAILURES_TO_OPEN; i++) breaker.recordFailure();
    assert.equal(breaker.isOpen(), true);
    breaker.recordSuccess();
    assert.equal(breaker.isOpen(), false);
  });

  it('a success resets the count of failures in a row', () => {
    const breaker = new Breaker(300_000, () => 0);
    for (let i = 1; i < FAILURES_TO_OPEN; i++) breaker.recordFailure();
    breaker.recordSuccess();
    for (let i = 1; i < FAILURES_TO_OPEN; i++) assert.equal(breaker.recordFailure(), false);
    assert.equal(breaker.isOpen(), false);
  });

  it('never opens with a cooldown of 0', () => {
    const breaker = new Breaker(0, () => 0);
    for (let i = 0; i < 20; i++) assert.equal(breaker.recordFailure(), false);
    assert.equal(breaker.isOpen(), false);
  });
});

describe('delivery plan', () => {
  it('never sends a pair twice', () => {
    assert.deepEqual(planDelivery('queued', undefined, false, 8), { kind: 'skip' });
    assert.deepEqual(planDelivery('delivered', undefined, false, 8), { kind: 'skip' });
    assert.deepEqual(planDelivery(undefined, { result: 'delivered', attempts: 1 }, false, 8), { kind: 'skip' });
    assert.deepEqual(planDelivery(undefined, { result: 'failed', attempts: 8 }, false, 8), { kind: 'skip' });
    assert.deepEqual(planDelivery(undefined, { result: 'failed', attempts: 1 }, true, 8), { kind: 'skip' });
  });

  it('records pending before a first attempt and resumes a pending one with its attempts', () => {
    assert.deepEqual(planDelivery(undefined, undefined, false, 8), { kind: 'queue', attempts: 0, record: true });
    assert.deepEqual(planDelivery(undefined, { result: 'pending', attempts: 3 }, false, 8), { kind: 'queue', attempts: 3, record: false });
    assert.deepEqual(planDelivery(undefined, { result: 'pending', attempts: 8 }, false, 8), { kind: 'fail', attempts: 8 });
  });

  it('skips stale copies once, and delivers a fresh copy of an alert once found stale', () => {
    assert.deepEqual(planDelivery(undefined, undefined, true, 8), { kind: 'stale' });
    assert.deepEqual(planDelivery('stale', undefined, true, 8), { kind: 'skip' });
    assert.deepEqual(planDelivery(undefined, { result: 'stale', attempts: 0 }, true, 8), { kind: 'skip' });
    assert.deepEqual(planDelivery('stale', { result: 'stale', attempts: 0 }, false, 8), { kind: 'queue', attempts: 0, record: true });
  });
});

describe('attempt errors', () => {
  it('keep the error class and code, never a message naming the host or URL', () => {
    const refused = new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:8443'), { code: 'ECONNREFUSED' }) });
    assert.equal(safeErrorReason(refused), 'TypeError ECONNREFUSED');
    const parse = new TypeError('Failed to parse URL from http://user:secret@host/x');
    assert.equal(safeErrorReason(parse), 'TypeError');
    assert.equal(safeErrorReason(new TypeError('x', { cause: { code: 'weird code http://host' } })), 'TypeError');
    assert.equal(safeErrorReason('a string'), 'Error');
  });
});
