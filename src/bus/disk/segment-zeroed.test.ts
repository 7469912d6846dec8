import assert from 'node:assert/strict';
import { open, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import type { DiskBus } from './disk-bus.js';
import { collector, framesEnd, messages, openBus, until, withDir } from './disk-bus.test-support.js';
import { FaultyFs } from './faulty-fs.test-support.js';
import { FIRST_SEGMENT_ZEROED_BYTES, SPARE_SEGMENT_NAME } from './segment-log.js';

/**
 * Segments begun in space zeroed in advance (segment-log.ts): the zeros after the last frame are
 * the log's clean end on open, kept for the next writes; a torn write into them is cut like any
 * torn tail, whichever of its bytes reached the disk.
 */

const SEGMENT_BYTES = 8 * 1024;

async function newestSegment(dir: string): Promise<string> {
  const names = (await readdir(dir)).filter((name) => /^\d+\.seg$/.test(name)).sort();
  return join(dir, names.at(-1) ?? '');
}

/** Publishes until the active segment is one begun in zeroed space (its file a whole segment, ending in zeros); returns what was published. */
async function publishIntoZeroedSegment(bus: DiskBus, dir: string): Promise<string[]> {
  const published: string[] = [];
  let round = 0;
  await until(async () => {
    const batch = messages(`r${round++}`, 3, 200);
    await bus.publish('signals', batch);
    published.push(...batch.map((message) => message.value.toString()));
    const bytes = await readFile(await newestSegment(dir));
    return bytes.length === SEGMENT_BYTES && framesEnd(bytes) < SEGMENT_BYTES - 1024;
  }, 'a segment begun in zeroed space');
  return published;
}

async function readAll(bus: DiskBus, count: number): Promise<string[]> {
  const seen = collector();
  const consumer = bus.consume({ group: 'reader', topics: ['signals'], handler: seen.handler });
  await until(() => seen.seen.length >= count, `${count} records`);
  await consumer.close();
  return seen.seen.map((record) => record.value.toString()).sort();
}

test('a crash in a segment begun in zeroed space loses nothing acknowledged; its zeros are the clean end, kept for the next writes', async () => {
  await withDir(async (dir) => {
    const crashed = await openBus(dir, { segmentBytes: SEGMENT_BYTES });
    const published = await publishIntoZeroedSegment(crashed, dir);
    const more = messages('more', 2, 200);
    await crashed.publish('signals', more);
    published.push(...more.map((message) => message.value.toString()));
    // Never closed: as after kill -9.
    const segment = await newestSegment(dir);
    const bus = await openBus(dir, { segmentBytes: SEGMENT_BYTES });
    assert.equal(bus.recovery.truncatedBytes, 0);
    assert.deepEqual(bus.recovery.reasons, []);
    assert.equal((await stat(segment)).size, SEGMENT_BYTES, 'the zeroed space stays');
    const after = messages('after', 2, 200);
    await bus.publish('signals', after);
    published.push(...after.map((message) => message.value.toString()));
    assert.deepEqual(await readAll(bus, published.length), [...published].sort());
    await bus.close();
  });
});

for (const { name, tornAt } of [
  { name: 'half a frame written at the end of the frames', tornAt: 0 },
  { name: 'a write whose first bytes were lost (zeros at the end of the frames, its later bytes after them)', tornAt: 100 },
]) {
  test(`a torn write into zeroed space is cut on open: ${name}`, async () => {
    await withDir(async (dir) => {
      const first = await openBus(dir, { segmentBytes: SEGMENT_BYTES });
      const published = await publishIntoZeroedSegment(first, dir);
      // Never closed (a close would delete the segments no group needs): the torn write is the crash's.
      const segment = await newestSegment(dir);
      const end = framesEnd(await readFile(segment));
      const torn = Buffer.alloc(18);
      torn.writeUInt32LE(500, 0);
      torn.writeUInt32LE(0xdeadbeef, 4);
      const handle = await open(segment, 'r+');
      await handle.write(torn, 0, torn.length, end + tornAt);
      await handle.close();

      const bus = await openBus(dir, { segmentBytes: SEGMENT_BYTES });
      assert.equal(bus.recovery.truncatedBytes, SEGMENT_BYTES - end);
      assert.equal((await stat(segment)).size, end);
      const after = messages('after', 2, 200);
      await bus.publish('signals', after);
      published.push(...after.map((message) => message.value.toString()));
      assert.deepEqual(await readAll(bus, published.length), [...published].sort());
      await bus.close();
    });
  });
}

test('without room to zero the next segment, segments are begun empty and every acknowledged record is kept', async () => {
  await withDir(async (dir) => {
    const fs = new FaultyFs();
    fs.inject({ call: 'write', file: new RegExp(`^${SPARE_SEGMENT_NAME.replaceAll('.', '\\.')}$`), code: 'ENOSPC' });
    const bus = await openBus(dir, { fs, segmentBytes: SEGMENT_BYTES });
    const published: string[] = [];
    for (let round = 0; round < 12; round++) {
      const batch = messages(`r${round}`, 3, 1000);
      await bus.publish('signals', batch);
      published.push(...batch.map((message) => message.value.toString()));
    }
    await until(() => fs.failures.length > 0, 'the zeroing to fail');
    const segments = (await readdir(dir)).filter((name) => /^\d+\.seg$/.test(name));
    assert.ok(segments.length >= 3, `rolled on: ${segments.join(', ')}`);
    assert.deepEqual(await readAll(bus, published.length), [...published].sort());
    await bus.close();
    assert.ok(!(await readdir(dir)).includes(SPARE_SEGMENT_NAME), 'the failed spare is deleted');
  });
});

test("a new log's first segment begins in less zeroed space than a whole segment, and grows by appends past it", async () => {
  await withDir(async (dir) => {
    const segmentBytes = 2 * FIRST_SEGMENT_ZEROED_BYTES;
    const bus = await openBus(dir, { segmentBytes, maxBytes: 8 * segmentBytes });
    const first = await newestSegment(dir);
    assert.equal((await stat(first)).size, FIRST_SEGMENT_ZEROED_BYTES, 'the first start zeroes the smaller space only');
    const published: string[] = [];
    for (let round = 0; (await readdir(dir)).filter((name) => /^\d+\.seg$/.test(name)).length < 2; round++) {
      const batch = messages(`r${round}`, 8, 64 * 1024);
      await bus.publish('signals', batch);
      published.push(...batch.map((message) => message.value.toString()));
    }
    assert.ok((await stat(first)).size >= segmentBytes, 'the first segment grew by appends past its zeroed space');
    assert.deepEqual(await readAll(bus, published.length), [...published].sort());
    await bus.close();
  });
});
