import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MemoryGate } from './memory-gate.js';
import { InFlightBudget } from './in-flight-budget.js';
import { readAnonRssBytes } from './anon-rss.js';

const MIB = 1024 * 1024;

/** A gate on a clock and a memory figure the test moves, counting the reads. */
function gate(maxBytes = 100 * MIB) {
  const state = { nowMs: 0, anonBytes: (50 * MIB) as number | undefined, reads: 0 };
  const memory = new MemoryGate({
    maxBytes,
    checkEveryMs: 50,
    admitEveryMs: 1000,
    readAnonBytes: () => {
      state.reads += 1;
      return state.anonBytes;
    },
    nowMs: () => state.nowMs,
  });
  return { memory, state };
}

test('admits every export while memory is within the bound', () => {
  const { memory, state } = gate();
  for (let i = 0; i < 100; i++) {
    state.nowMs += 7;
    assert.equal(memory.refuses(), false);
  }
  state.anonBytes = 100 * MIB;
  state.nowMs += 50;
  assert.equal(memory.refuses(), false, 'at the bound is within it');
});

test('above the bound refuses, but admits one export a second so progress never stops', () => {
  const { memory, state } = gate();
  state.anonBytes = 101 * MIB;
  assert.equal(memory.refuses(), false, 'the first export while high is the one of this second');
  const admitted: number[] = [];
  for (state.nowMs = 1; state.nowMs <= 3000; state.nowMs += 10) if (!memory.refuses()) admitted.push(state.nowMs);
  assert.deepEqual(admitted, [1001, 2001]);
  state.anonBytes = 90 * MIB;
  state.nowMs += 50;
  assert.equal(memory.refuses(), false, 'admission resumes once memory is back under');
  assert.equal(memory.refuses(), false);
});

test('memory is read at most every checkEveryMs; in between the last figure holds', () => {
  const { memory, state } = gate();
  memory.refuses();
  assert.equal(state.reads, 1);
  state.anonBytes = 500 * MIB;
  state.nowMs = 49;
  assert.equal(memory.refuses(), false, 'the reading of 0 ms still holds');
  assert.equal(state.reads, 1);
  state.nowMs = 50;
  assert.equal(memory.refuses(), false, 'the one export of this second');
  assert.equal(memory.refuses(), true);
  assert.equal(state.reads, 2);
});

test('where memory cannot be read, nothing is refused for it', () => {
  const { memory, state } = gate();
  state.anonBytes = undefined;
  for (let i = 0; i < 10; i++) assert.equal(memory.refuses(), false);
});

test('the in-flight budget refuses with reason memory while the gate does, and only once every other bound admits', async () => {
  const { memory, state } = gate();
  const budget = new InFlightBudget({ maxInFlightRequests: 2, maxInFlightBytes: 1000, maxWaitMs: 5000, memory });
  const first = await budget.acquire(100);
  assert.ok(typeof first !== 'string');
  state.anonBytes = 200 * MIB;
  state.nowMs = 100;
  const second = await budget.acquire(100);
  assert.ok(typeof second !== 'string', 'the one export of this second');
  assert.equal(await budget.acquire(100), 'in_flight_requests', 'a full budget refuses first, leaving the gate untouched');
  first.release();
  assert.equal(await budget.acquire(100), 'memory');
  state.nowMs = 1100;
  const third = await budget.acquire(100);
  assert.ok(typeof third !== 'string', 'the next second admits one again');
  second.release();
  third.release();
  assert.deepEqual(budget.inFlight(), { requests: 0, bytes: 0 });
});

test('the anonymous resident memory of this process reads as a plausible figure on Linux', () => {
  const bytes = readAnonRssBytes();
  if (process.platform !== 'linux') return assert.equal(bytes, undefined);
  assert.ok(bytes !== undefined && bytes > MIB && bytes < 64 * 1024 * MIB, `RssAnon ${String(bytes)}`);
  const held = Buffer.alloc(64 * MIB, 1);
  const after = readAnonRssBytes();
  assert.ok(after !== undefined && after >= bytes + 32 * MIB, `64 MiB touched shows in RssAnon (${bytes} -> ${String(after)})`);
  assert.equal(held[held.length - 1], 1);
});
