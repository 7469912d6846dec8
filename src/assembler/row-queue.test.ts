import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PermanentError } from '../util/retry.js';
import { RowQueue, type RowQueueOptions } from './row-queue.js';

function queue(overrides: Partial<RowQueueOptions<number>> & { failures?: number } = {}) {
  const writes: number[][] = [];
  const dropped: number[] = [];
  const failuresSeen: number[] = [];
  let left = overrides.failures ?? 0;
  const q = new RowQueue<number>({
    maxRows: 3,
    maxAgeMs: 30,
    maxQueuedRows: 100,
    backoff: { firstMs: 5, maxMs: 20 },
    nowMs: Date.now,
    write: async (rows) => {
      if (left-- > 0) throw new Error('store down');
      writes.push([...rows]);
    },
    onWritten: () => {},
    onFailure: (_error, attempt) => failuresSeen.push(attempt),
    onDropped: (rows) => dropped.push(rows),
    ...overrides,
  });
  return { q, writes, dropped, failuresSeen };
}

async function until(what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadlineMs = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadlineMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

test('writes at maxRows at once, in batches of at most maxRows', async () => {
  // maxAgeMs far away: only reaching maxRows can start a write before close().
  const { q, writes } = queue({ maxAgeMs: 3_600_000 });
  q.push([1, 2, 3, 4, 5, 6, 7]);
  await until('two full batches', () => writes.length >= 2);
  assert.deepEqual(
    writes,
    [
      [1, 2, 3],
      [4, 5, 6],
    ],
    'the partial batch waits',
  );
  await q.close();
  assert.deepEqual(writes, [[1, 2, 3], [4, 5, 6], [7]]);
});

test('writes a partial batch once the oldest row is maxAgeMs old, not before', async () => {
  const { q, writes } = queue({ maxAgeMs: 80 });
  q.push([1]);
  // Armed in the same tick on the same clock, a 30 ms timer fires before the queue's 80 ms one,
  // however late the loaded machine runs both.
  const writtenAt30Ms = await new Promise<number[][]>((resolve) =>
    setTimeout(() => {
      resolve(writes.map((batch) => [...batch]));
      q.push([2]);
    }, 30),
  );
  assert.deepEqual(writtenAt30Ms, [], 'nothing written before maxAgeMs');
  await until('the partial batch', () => writes.length > 0);
  assert.deepEqual(writes, [[1, 2]]);
  await q.close();
});

test('a failing write is retried with the same rows; rows queued meanwhile follow', async () => {
  const { q, writes, failuresSeen, dropped } = queue({ failures: 2 });
  q.push([1, 2, 3]);
  q.push([4]);
  await q.close();
  assert.deepEqual(writes, [[1, 2, 3], [4]]);
  assert.deepEqual(failuresSeen, [1, 2]);
  assert.deepEqual(dropped, []);
});

test('past maxQueuedRows the oldest queued rows are dropped and counted', async () => {
  const { q, writes, dropped } = queue({ maxRows: 100, maxQueuedRows: 4 });
  q.push([1, 2, 3]);
  q.push([4, 5, 6]);
  assert.equal(q.queued, 4);
  assert.deepEqual(dropped, [2]);
  await q.close();
  assert.deepEqual(writes, [[3, 4, 5, 6]]);
});

test('a long run of pushes past maxQueuedRows keeps the newest rows in order, whatever is written meanwhile', async () => {
  // Past the array's cut (1,024 dropped rows), with one write in flight while the rest queue up.
  const { q, writes, dropped } = queue({ maxRows: 50, maxQueuedRows: 100 });
  for (let row = 0; row < 5_000; row++) q.push([row]);
  assert.equal(q.queued, 100);
  await q.close();
  const written = writes.flat();
  const droppedRows = dropped.reduce((sum, rows) => sum + rows, 0);
  assert.equal(written.length + droppedRows, 5_000);
  assert.deepEqual(
    written.slice(0, 50),
    Array.from({ length: 50 }, (_, index) => index),
  );
  assert.deepEqual(
    written.slice(50),
    Array.from({ length: 100 }, (_, index) => 4_900 + index),
  );
});

test('close gives up on a store that stays down after the grace period, counting the rows as dropped', async () => {
  const { q, writes, dropped } = queue({ failures: 1_000 });
  q.push([1, 2]);
  await q.close(30);
  assert.deepEqual(writes, []);
  assert.deepEqual(dropped, [2]);
});

test('a permanent failure drops its batch (counted) instead of blocking the queue', async () => {
  let calls = 0;
  const { q, writes, dropped } = queue({
    write: async (rows) => {
      calls++;
      if (rows.includes(13)) throw new PermanentError('cannot encode');
      writes.push([...rows]);
    },
  });
  q.push([12, 13, 14]);
  q.push([15]);
  await q.close();
  assert.deepEqual(writes, [[15]]);
  assert.deepEqual(dropped, [3]);
  assert.equal(calls, 2);
});
