import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { gatherChunks } from './gather-chunks.js';

async function collect(source: AsyncIterable<Buffer>, chunkBytes: number, waitMs: number): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const chunk of gatherChunks(source, chunkBytes, waitMs)) out.push(chunk);
  return out;
}

async function* pieces(count: number, bytes: number, gapMs = 0): AsyncGenerator<Buffer> {
  for (let i = 0; i < count; i++) {
    if (gapMs > 0) await sleep(gapMs);
    yield Buffer.alloc(bytes, 97 + (i % 26));
  }
}

test('pieces that come at once are gathered into chunks of the given size, bytes in order', async () => {
  const chunks = await collect(pieces(10, 4), 16, 50);
  assert.deepEqual(
    chunks.map((c) => c.length),
    [16, 16, 8],
  );
  assert.equal(Buffer.concat(chunks).toString('latin1'), 'aaaabbbbccccddddeeeeffffgggghhhhiiiijjjj');
});

test('a piece larger than a chunk passes whole; an empty source gives nothing', async () => {
  assert.deepEqual(
    (await collect(pieces(2, 40), 16, 50)).map((c) => c.length),
    [40, 40],
  );
  assert.deepEqual(await collect(pieces(0, 4), 16, 50), []);
});

test('a slow source is passed on piece by piece, not held until a chunk fills', async () => {
  const chunks = await collect(pieces(4, 4, 30), 1 << 20, 5);
  assert.deepEqual(
    chunks.map((c) => c.length),
    [4, 4, 4, 4],
  );
});

test('a failing source fails the reader', async () => {
  async function* failing(): AsyncGenerator<Buffer> {
    yield Buffer.from('ab');
    await sleep(20);
    throw new Error('read failed');
  }
  await assert.rejects(collect(failing(), 16, 5), /read failed/);
});
