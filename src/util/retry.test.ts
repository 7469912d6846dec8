import assert from 'node:assert/strict';
import { test } from 'node:test';
import { backoffDelayMs, PermanentError, retryWithBackoff, STORE_WRITE_BACKOFF, type RetryOptions } from './retry.js';

/** A clock that moves only when the retry sleeps, recording each wait. */
function fakeClock(startMs = 1_000) {
  let nowMs = startMs;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => nowMs,
    sleep: async (delayMs: number) => {
      sleeps.push(delayMs);
      nowMs += delayMs;
    },
  };
}

/** An attempt that fails `failures` times with `error`, then returns 'done'. */
function failing(failures: number, error: () => unknown = () => new Error('store down')) {
  const attempts: number[] = [];
  return {
    attempts,
    run: async (attemptNumber: number) => {
      attempts.push(attemptNumber);
      if (attempts.length <= failures) throw error();
      return 'done';
    },
  };
}

function options(clock: ReturnType<typeof fakeClock>, extra: Partial<RetryOptions> = {}): RetryOptions {
  return { backoff: { firstMs: 100, maxMs: 1_000 }, nowMs: clock.now, sleep: clock.sleep, ...extra };
}

test('backoff doubles from the first delay after each failure and stops at the cap', () => {
  assert.deepEqual(
    [1, 2, 3, 4, 5, 6].map((failed) => backoffDelayMs(failed, { firstMs: 100, maxMs: 1_000 })),
    [100, 200, 400, 800, 1_000, 1_000],
  );
  assert.equal(backoffDelayMs(0, { firstMs: 100, maxMs: 1_000 }), 100, 'no failure yet counts as the first');
  assert.equal(backoffDelayMs(10_000, STORE_WRITE_BACKOFF), 10_000, 'a long outage stays at the cap, never Infinity');
  assert.deepEqual(
    [1, 2, 3, 6, 7].map((failed) => backoffDelayMs(failed, STORE_WRITE_BACKOFF)),
    [250, 500, 1_000, 8_000, 10_000],
  );
});

test('a failing attempt is tried again after the backoff delays until it succeeds; every failure is reported with its number', async () => {
  const clock = fakeClock();
  const attempt = failing(5);
  const failures: number[] = [];
  const result = await retryWithBackoff(attempt.run, options(clock, { onFailure: (_error, n) => failures.push(n) }));
  assert.equal(result, 'done');
  assert.deepEqual(attempt.attempts, [1, 2, 3, 4, 5, 6]);
  assert.deepEqual(failures, [1, 2, 3, 4, 5]);
  assert.deepEqual(clock.sleeps, [100, 200, 400, 800, 1_000]);
});

test('a success at the first attempt never sleeps', async () => {
  const clock = fakeClock();
  assert.equal(await retryWithBackoff(failing(0).run, options(clock)), 'done');
  assert.deepEqual(clock.sleeps, []);
});

test('a PermanentError ends the retries at once and is what the caller gets', async () => {
  const clock = fakeClock();
  const permanent = new PermanentError('templateId must be a u64', { cause: 'bad row' });
  const attempt = failing(3, () => permanent);
  await assert.rejects(retryWithBackoff(attempt.run, options(clock)), (error) => error === permanent);
  assert.deepEqual(attempt.attempts, [1]);
  assert.deepEqual(clock.sleeps, []);
});

test('any other error, a TypeError too, is retried: only the explicit type means permanent', async () => {
  const clock = fakeClock();
  const attempt = failing(2, () => new TypeError('fetch failed'));
  assert.equal(await retryWithBackoff(attempt.run, options(clock)), 'done');
  assert.deepEqual(attempt.attempts, [1, 2, 3]);
});

test('a caller may say what is permanent itself', async () => {
  const clock = fakeClock();
  const attempt = failing(3, () => Object.assign(new Error('bad request'), { status: 400 }));
  await assert.rejects(retryWithBackoff(attempt.run, options(clock, { isPermanent: (error) => (error as { status?: number }).status === 400 })), /bad request/);
  assert.deepEqual(attempt.attempts, [1]);
});

test('past the deadline the next failure is final; the deadline is read after every failure, so it may be set while retrying', async () => {
  const clock = fakeClock(0);
  let deadlineMs: number | undefined;
  const attempt = failing(100);
  const failures: number[] = [];
  const retried = retryWithBackoff(attempt.run, {
    ...options(clock),
    deadlineMs: () => deadlineMs,
    onFailure: (_error, n) => {
      failures.push(n);
      // close() during the third attempt: 500 ms of grace from then.
      if (n === 3) deadlineMs = clock.now() + 500;
    },
  });
  await assert.rejects(retried, /store down/);
  // Failures at 0, 100, 300 (deadline 800), 700, then 1500: past it, no more sleeping.
  assert.deepEqual(clock.sleeps, [100, 200, 400, 800]);
  assert.deepEqual(failures, [1, 2, 3, 4, 5]);
});

test('without a deadline a long outage is retried as long as it lasts, at the capped delay', async () => {
  const clock = fakeClock();
  const attempt = failing(50);
  assert.equal(await retryWithBackoff(attempt.run, options(clock)), 'done');
  assert.equal(attempt.attempts.length, 51);
  assert.ok(clock.sleeps.slice(4).every((delayMs) => delayMs === 1_000));
});
