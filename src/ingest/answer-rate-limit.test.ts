import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AnswerRateLimit } from './answer-rate-limit.js';

const OPTIONS = { targetAnswerMs: 1_000, floorRequests: 16, windowMs: 2_000 };

test('with no answers yet (a cold start) the floor is allowed', () => {
  assert.equal(new AnswerRateLimit(OPTIONS).limit(0), 16);
});

test('the limit is the answer rate over the window times the target answer time', () => {
  const limit = new AnswerRateLimit(OPTIONS);
  // 100 answers a second for two seconds: 100 may be in flight to be answered within a second.
  for (let ms = 0; ms < 2_000; ms += 10) limit.answered(ms);
  assert.equal(limit.limit(1_999), 100);
});

test('answers older than the window no longer count, so the limit falls back to the floor', () => {
  const limit = new AnswerRateLimit(OPTIONS);
  for (let ms = 0; ms < 1_000; ms += 1) limit.answered(ms);
  assert.equal(limit.limit(1_000), 500);
  assert.equal(limit.limit(2_400), 200, 'the first 600 ms of answers have left the window');
  assert.equal(limit.limit(5_000), 16);
});

test('a limit that caps the exports in flight rises when they are answered faster than the target', () => {
  const limit = new AnswerRateLimit(OPTIONS);
  // As many in flight as allowed, each answered within 100 ms (a tenth of the target).
  let inFlight = limit.limit(0);
  assert.equal(inFlight, 16);
  for (let nowMs = 0; nowMs < 2_000; nowMs += 100) {
    for (let i = 0; i < inFlight; i++) limit.answered(nowMs);
    inFlight = limit.limit(nowMs);
  }
  assert.ok(inFlight > 16 * 5, `limit ${inFlight}`);
});
