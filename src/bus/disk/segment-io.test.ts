import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import type { BusRecord } from '../../model/bus.js';
import { readFrame, recordFrameBytes, writeRecordFrame } from './entry-codec.js';
import { createSegmentIo } from './segment-io.js';
import { withDir } from './disk-bus.test-support.js';

/** The bus's I/O threads: writes and syncs land in the file, errors keep their errno code, the threads carry their name. */

function threadNames(): string[] {
  return readdirSync('/proc/self/task').map((tid) => readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim());
}

test('writes at positions and fdatasyncs run on the svc-bus-io threads and land in the file', async () => {
  await withDir(async (dir) => {
    const io = createSegmentIo();
    try {
      const path = join(dir, 'a.seg');
      const created = await io.fs.open(path, 'w');
      await created.close();
      const file = await io.fs.open(path, 'r+');
      const source = Buffer.from('..hello world..');
      assert.deepEqual(await file.write(source, 2, 5, 0), { bytesWritten: 5 });
      assert.deepEqual(await file.write(Buffer.from(' there'), 0, 6, 5), { bytesWritten: 6 });
      await file.datasync();
      assert.equal(source.toString(), '..hello world..', 'the caller keeps its buffer');
      assert.equal(threadNames().filter((name) => name === 'svc-bus-io').length, 2);
      await file.close();
      assert.equal(await readFile(path, 'utf8'), 'hello there');
    } finally {
      await io.close();
    }
  });
});

test('an error on an I/O thread is thrown with its errno code, and the threads go on', async () => {
  await withDir(async (dir) => {
    const io = createSegmentIo();
    try {
      const path = join(dir, 'b.seg');
      await (await io.fs.open(path, 'w')).close();
      const file = await io.fs.open(path, 'r+');
      // Past the largest file the file system allows: the write fails as node's own would.
      await assert.rejects(file.write(Buffer.from('x'), 0, 1, 2 ** 50), { code: 'EFBIG' });
      assert.deepEqual(await file.write(Buffer.from('ok'), 0, 2, 0), { bytesWritten: 2 });
      await file.datasync();
      await file.close();
      // A closed file is never written through a descriptor number that may have been reused.
      await assert.rejects(file.write(Buffer.from('x'), 0, 1, 0));
      assert.equal(await readFile(path, 'utf8'), 'ok');
    } finally {
      await io.close();
    }
  });
});

test('writeFrames seals frames on the thread, writes them (and syncs them), and names the step that failed', async () => {
  await withDir(async (dir) => {
    const io = createSegmentIo();
    try {
      const path = join(dir, 'c.seg');
      await (await io.fs.open(path, 'w')).close();
      const file = await io.fs.open(path, 'r+');
      assert.ok(file.writeFrames !== undefined);
      const [one, two, three] = [record('one', 10), record('two', 200 * 1024), record('three', 0)];
      // The first alone, synced; the second in a group of its own memory, which moves to the thread
      // (no copy); the third in a buffer sharing a pool, which is copied.
      const first = unsealed([one], Buffer.allocUnsafeSlow(recordFrameBytes('signals', one)));
      const firstBytes = first.length;
      assert.deepEqual(await file.writeFrames(first, 0, true), {});
      const group = unsealed([two], Buffer.allocUnsafeSlow(recordFrameBytes('signals', two)));
      let at = firstBytes;
      const groupBytes = group.length;
      assert.deepEqual(await file.writeFrames(group, at, false), {});
      assert.equal(group.length, 0, 'transferred, not copied');
      at += groupBytes;
      const pooled = unsealed([three], Buffer.allocUnsafe(recordFrameBytes('signals', three)));
      assert.ok(pooled.byteLength < pooled.buffer.byteLength);
      assert.deepEqual(await file.writeFrames(pooled, at, true), {});
      const failed = await file.writeFrames(unsealed([three], Buffer.allocUnsafeSlow(recordFrameBytes('signals', three))), 2 ** 50, true);
      assert.equal(failed.failedAt, 'write');
      assert.equal((failed.error as NodeJS.ErrnoException).code, 'EFBIG');
      // Bytes that are no whole frames are refused before anything is written.
      const torn = await file.writeFrames(Buffer.from([5, 0, 0, 0, 0, 0, 0, 0, 1]), at, true);
      assert.equal(torn.failedAt, 'write');
      await file.close();
      const written = await readFile(path);
      assert.equal(written.length, at + pooled.length);
      assert.equal(pooled.readUInt32LE(4), 0, "the caller's pooled copy is left as it was");
      const read: string[] = [];
      for (let position = 0; position < written.length;) {
        const frame = readFrame(written, position);
        assert.equal(frame.kind, 'entry', `whole frame with its checksum at ${position}`);
        if (frame.kind !== 'entry' || frame.entry.kind !== 'record') break;
        read.push(`${frame.entry.key}:${frame.entry.value.length}`);
        position += frame.frameBytes;
      }
      assert.deepEqual(read, ['one:10', `two:${200 * 1024}`, 'three:0']);
    } finally {
      await io.close();
    }
  });
});

function record(key: string, valueBytes: number): BusRecord {
  return { topic: 'signals', partition: 1, offset: 7n, timestampMs: 1, key, value: Buffer.alloc(valueBytes, key), headers: { 'svc-signal': 'traces' } };
}

/** The records' frames written into `out`, checksums zero. */
function unsealed(records: BusRecord[], out: Buffer): Buffer {
  let at = 0;
  for (const entry of records) at = writeRecordFrame(out, at, entry);
  assert.equal(at, out.length);
  return out;
}
