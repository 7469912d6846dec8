import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AnswerRateLimit } from './answer-rate-limit.js';
import { InFlightBudget, type InFlightLease, type Refusal } from './in-flight-budget.js';
import { heldBytesFor, HELD_BYTES_PER_BODY_BYTE } from './in-flight-estimate.js';

const limits = { maxInFlightRequests: 3, maxInFlightBytes: 1000, maxWaitMs: 5000 };

async function lease(budget: InFlightBudget, bytes: number): Promise<InFlightLease> {
  const result = await budget.acquire(bytes);
  assert.ok(typeof result !== 'string', `expected a lease for ${bytes} bytes, got ${String(result)}`);
  return result;
}

/** Whether a promise settled by the time queued callbacks ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
}

test('admits exports while requests and bytes stay within the limits, and says which limit refused', async () => {
  const budget = new InFlightBudget(limits);
  const a = await lease(budget, 400);
  const b = await lease(budget, 500);
  assert.equal(await budget.acquire(200), 'in_flight_bytes');
  const c = await lease(budget, 100);
  assert.deepEqual(budget.inFlight(), { requests: 3, bytes: 1000 });
  assert.equal(await budget.acquire(0), 'in_flight_requests');
  a.release();
  assert.deepEqual(budget.inFlight(), { requests: 2, bytes: 600 });
  const d = await lease(budget, 400);
  for (const each of [b, c, d]) each.release();
  assert.deepEqual(budget.inFlight(), { requests: 0, bytes: 0 });
});

test('release is idempotent', async () => {
  const budget = new InFlightBudget(limits);
  const a = await lease(budget, 300);
  const b = await lease(budget, 300);
  a.release();
  a.release();
  assert.deepEqual(budget.inFlight(), { requests: 1, bytes: 300 });
  b.release();
  assert.deepEqual(budget.inFlight(), { requests: 0, bytes: 0 });
});

test('an export larger than the whole budget is admitted when nothing else is in flight', async () => {
  const budget = new InFlightBudget(limits);
  const huge = await lease(budget, 64_000);
  assert.equal(await budget.acquire(1), 'in_flight_bytes', 'nothing else fits beside it');
  huge.release();
  assert.deepEqual(budget.inFlight(), { requests: 0, bytes: 0 });
});

test('an oversized export arriving under load waits for the others, and new exports make way for it', async () => {
  const budget = new InFlightBudget(limits);
  const a = await lease(budget, 100);
  const b = await lease(budget, 100);
  const waiting = budget.acquire(5000);
  assert.equal(await settled(waiting), false, 'it waits while others are in flight');
  assert.equal(await budget.acquire(10), 'in_flight_bytes', 'small exports are refused while it waits');
  assert.equal(await budget.acquire(6000), 'in_flight_bytes', 'only one export waits');
  a.release();
  assert.equal(await settled(waiting), false);
  b.release();
  const huge = await waiting;
  assert.ok(typeof huge !== 'string');
  assert.deepEqual(budget.inFlight(), { requests: 1, bytes: 5000 });
  huge.release();
  assert.ok(typeof (await budget.acquire(10)) !== 'string', 'admission resumes');
});

test('the waiting export is refused after maxWaitMs, and at once when the budget closes', async () => {
  const quick = new InFlightBudget({ ...limits, maxWaitMs: 20 });
  const held = await lease(quick, 10);
  assert.equal(await quick.acquire(5000), 'in_flight_bytes');
  assert.ok(typeof (await quick.acquire(10)) !== 'string', 'admission resumes once the waiter gave up');
  held.release();

  const budget = new InFlightBudget(limits);
  const other = await lease(budget, 10);
  const waiting = budget.acquire(5000);
  budget.close();
  assert.equal(await waiting, 'stopping');
  other.release();
});

test('growing a lease: granted when it fits, or alone; shrinking always; the byte count follows', async () => {
  const budget = new InFlightBudget(limits);
  const a = await lease(budget, 100);
  assert.equal(await a.resize(5000), null, 'alone, it may grow past the budget');
  assert.equal(a.bytes, 5000);
  assert.equal(await a.resize(200), null);
  assert.deepEqual(budget.inFlight(), { requests: 1, bytes: 200 });
  const b = await lease(budget, 300);
  assert.equal(await b.resize(800), null, '200 + 800 fits');
  assert.deepEqual(budget.inFlight(), { requests: 2, bytes: 1000 });
  a.release();
  b.release();
});

test('a lease that cannot grow beside the others waits for them (one at a time), and is refused when another already waits', async () => {
  const budget = new InFlightBudget(limits);
  const a = await lease(budget, 400);
  const b = await lease(budget, 400);
  const growing = a.resize(900);
  assert.equal(await settled(growing), false);
  assert.equal(await b.resize(500), 'in_flight_bytes', 'a second grower is refused, not queued');
  assert.equal(await budget.acquire(150), 'in_flight_bytes', 'its pending growth counts as held');
  b.release();
  assert.equal(await growing, null);
  assert.deepEqual(budget.inFlight(), { requests: 1, bytes: 900 });
  a.release();
});

test('after close every export is refused as stopping; leases in flight finish and whenIdle resolves', async () => {
  const budget = new InFlightBudget(limits);
  const a = await lease(budget, 100);
  budget.close();
  assert.equal(await budget.acquire(1), 'stopping');
  assert.equal(await a.resize(50), null, 'shrinking still works');
  assert.equal(await a.resize(500), 'stopping');
  const idle = budget.whenIdle();
  assert.equal(await settled(idle), false);
  a.release();
  await idle;
  await budget.whenIdle();
});

test('refusals never change the counts', async () => {
  const budget = new InFlightBudget({ ...limits, maxInFlightRequests: 1 });
  const a = await lease(budget, 10);
  const refusals: (InFlightLease | Refusal)[] = await Promise.all([budget.acquire(1), budget.acquire(1), budget.acquire(2)]);
  assert.deepEqual(refusals, ['in_flight_requests', 'in_flight_requests', 'in_flight_requests']);
  assert.deepEqual(budget.inFlight(), { requests: 1, bytes: 10 });
  a.release();
});

test('held bytes: the body times the decode factor, plus the compressed bytes when gzipped', () => {
  assert.equal(heldBytesFor(1000), 1000 * HELD_BYTES_PER_BODY_BYTE);
  assert.equal(heldBytesFor(1000, 1000), 1000 * HELD_BYTES_PER_BODY_BYTE);
  assert.equal(heldBytesFor(100, 1000), 100 + 1000 * HELD_BYTES_PER_BODY_BYTE);
  assert.ok(HELD_BYTES_PER_BODY_BYTE >= 25, 'covers rows of tiny items (25-35x the wire size)');
});

test('with an answer-rate limit, exports past what is answered within the target are refused at once, and the limit follows the answers', async () => {
  let nowMs = 0;
  const limit = new AnswerRateLimit({ targetAnswerMs: 1_000, floorRequests: 2, windowMs: 1_000 });
  const budget = new InFlightBudget({ maxInFlightRequests: 100, maxInFlightBytes: 1_000_000, maxWaitMs: 5000, answerRate: { limit, nowMs: () => nowMs } });
  const cold = [await lease(budget, 10), await lease(budget, 10)];
  assert.equal(await budget.acquire(10), 'in_flight_requests', 'cold: the floor of 2');
  for (const each of cold) each.release();
  // Ten answers within the last second: ten may be in flight.
  for (let i = 0; i < 8; i++) (await lease(budget, 10)).release();
  nowMs = 900;
  const held: InFlightLease[] = [];
  for (let i = 0; i < 10; i++) held.push(await lease(budget, 10));
  assert.equal(await budget.acquire(10), 'in_flight_requests');
  for (const each of held) each.release();
  assert.deepEqual(budget.inFlight(), { requests: 0, bytes: 0 });
});
