import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
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

test('writeThenDatasync writes and syncs in one call, and names the step that failed', async () => {
  await withDir(async (dir) => {
    const io = createSegmentIo();
    try {
      const path = join(dir, 'c.seg');
      await (await io.fs.open(path, 'w')).close();
      const file = await io.fs.open(path, 'r+');
      assert.ok(file.writeThenDatasync !== undefined);
      assert.deepEqual(await file.writeThenDatasync(Buffer.from('one call'), 0), {});
      // A group's bytes in a buffer of their own move to the thread (no copy); what shares a pool is copied.
      const group = Buffer.allocUnsafe(256 * 1024).fill('g');
      assert.deepEqual(await file.writeThenDatasync(group, 8), {});
      assert.equal(group.length, 0, 'transferred, not copied');
      const pooled = Buffer.from('shared');
      assert.ok(pooled.byteLength < pooled.buffer.byteLength);
      assert.deepEqual(await file.writeThenDatasync(pooled, 8 + 256 * 1024), {});
      assert.equal(pooled.toString(), 'shared');
      const failed = await file.writeThenDatasync(Buffer.from('x'), 2 ** 50);
      assert.equal(failed.failedAt, 'write');
      assert.equal((failed.error as NodeJS.ErrnoException).code, 'EFBIG');
      await file.close();
      assert.equal(await readFile(path, 'utf8'), `one call${'g'.repeat(256 * 1024)}shared`);
    } finally {
      await io.close();
    }
  });
});
