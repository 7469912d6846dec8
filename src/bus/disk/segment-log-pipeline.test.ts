import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import type { DiskFile, DiskFs } from './disk-fs.js';
import { nodeDiskFs } from './disk-fs.js';
import { recordFrameBytes } from './entry-codec.js';
import { readSegment, segmentFileName } from './segment-files.js';
import { MAX_GROUP_BYTES, partitionKey, SegmentLog, type AppendFrame } from './segment-log.js';
import { until, withDir } from './disk-bus.test-support.js';

/**
 * The segment log's pipelined group commit: the next group is written while the one before it
 * syncs, appends are acknowledged in order and only once durable, a failed sync refuses what was
 * written behind it and what is queued, and each group is bounded in bytes. The file system holds
 * every fdatasync of a segment until the test releases it, so the interleaving is the test's.
 */

const SEGMENT_BYTES = 64 * 1024 * 1024;

/** node's file system whose segment fdatasyncs wait for `release`, and whose writes are recorded. */
class GatedFs implements DiskFs {
  readonly writes: number[] = [];
  readonly syncs: { release: (error?: Error) => void }[] = [];
  open = async (path: string, flags: string): Promise<DiskFile> => {
    const file = await nodeDiskFs.open(path, flags);
    if (!path.endsWith('.seg')) return file;
    return {
      ...bind(file),
      write: (buffer, offset, length, position) => {
        this.writes.push(length);
        return file.write(buffer, offset, length, position);
      },
      datasync: () =>
        new Promise<void>((resolve, reject) => {
          this.syncs.push({
            release: (error) => {
              if (error === undefined) file.datasync().then(resolve, reject);
              else reject(error);
            },
          });
        }),
    };
  };
  rename = nodeDiskFs.rename;
  unlink = nodeDiskFs.unlink;
  mkdirAll = nodeDiskFs.mkdirAll;
  readdir = nodeDiskFs.readdir;
  sizeBytes = nodeDiskFs.sizeBytes;
  readText = nodeDiskFs.readText;
}

function bind(file: DiskFile): DiskFile {
  return {
    write: (...args) => file.write(...args),
    read: (...args) => file.read(...args),
    writeFile: (data) => file.writeFile(data),
    truncate: (lengthBytes) => file.truncate(lengthBytes),
    datasync: () => file.datasync(),
    sync: () => file.sync(),
    close: () => file.close(),
  };
}

let nextOffset = 0n;
function frames(name: string, count = 1, valueBytes = 32): AppendFrame[] {
  return Array.from({ length: count }, () => {
    const offset = nextOffset++;
    const message = { key: name, value: Buffer.alloc(valueBytes, name) };
    const record = { topic: 'signals', partition: 0, offset, timestampMs: 0, ...message };
    return { bytes: recordFrameBytes('signals', message), key: partitionKey('signals', 0), record };
  });
}

/** Tracks an append: 'pending' until it settles, then 'acked' or 'refused'; `order` lists acks as they come. */
function track(log: SegmentLog, name: string, order: string[], count = 1, valueBytes = 32) {
  const state = { value: 'pending' as 'pending' | 'acked' | 'refused' };
  const done = log
    .append(frames(name, count, valueBytes), () => [])
    .then(
      () => {
        state.value = 'acked';
        order.push(name);
      },
      () => void (state.value = 'refused'),
    );
  return { state, done };
}

function syncAt(fs: GatedFs, index: number): { release: (error?: Error) => void } {
  const sync = fs.syncs[index];
  if (sync === undefined) throw new Error(`no sync ${index} yet`);
  return sync;
}

/** Releases each sync as it comes until `settled` holds; how many were released. */
async function releaseSyncsUntil(fs: GatedFs, settled: () => boolean): Promise<number> {
  let released = 0;
  while (!settled()) {
    if (fs.syncs.length > released) syncAt(fs, released++).release();
    else await new Promise((resolve) => setTimeout(resolve, 1));
  }
  return released;
}

/** Keys of every record in the log on disk, in order (as recovery reads it). */
async function recordKeys(log: SegmentLog): Promise<string[]> {
  const keys: string[] = [];
  for (const segment of log.segments) {
    const scan = await readSegment(
      nodeDiskFs,
      log.dir,
      segment.base,
      0,
      await nodeDiskFs.sizeBytes(join(log.dir, segmentFileName(segment.base))),
      Number.MAX_SAFE_INTEGER,
    );
    for (const { entry } of scan.entries) if (entry.kind === 'record') keys.push(entry.key);
  }
  return keys;
}

test('an append made while a sync runs is written behind it before the sync ends, and acknowledged after it', async () => {
  await withDir(async (dir) => {
    const fs = new GatedFs();
    const log = await SegmentLog.open(fs, dir, SEGMENT_BYTES, () => []);
    const order: string[] = [];
    const a = track(log, 'a', order);
    await until(() => fs.syncs.length === 1, 'the first sync');
    const b = track(log, 'b', order);
    await until(() => fs.writes.length === 2, 'the second group written while the first syncs');
    assert.equal(fs.syncs.length, 1, 'the second sync waits for the first');
    assert.equal(a.state.value, 'pending');
    syncAt(fs, 0).release();
    await a.done;
    assert.equal(b.state.value, 'pending', 'b is not acknowledged before its own sync');
    await until(() => fs.syncs.length === 2, 'the second sync');
    syncAt(fs, 1).release();
    await b.done;
    assert.deepEqual(order, ['a', 'b']);
    await log.close();
  });
});

test('acknowledgements come strictly in order while each group is written behind the sync of the one before', async () => {
  await withDir(async (dir) => {
    const fs = new GatedFs();
    const log = await SegmentLog.open(fs, dir, SEGMENT_BYTES, () => []);
    const order: string[] = [];
    const appends = [track(log, 'a', order)];
    for (const name of ['b', 'c', 'd', 'e']) {
      await until(() => fs.syncs.length === appends.length, `the sync of the group before ${name}`);
      appends.push(track(log, name, order));
      // Each sync released only once the next group was written behind it.
      await until(() => fs.writes.length === appends.length, `${name} written`);
      syncAt(fs, appends.length - 2).release();
    }
    await until(() => fs.syncs.length === appends.length, 'the last sync');
    syncAt(fs, appends.length - 1).release();
    await Promise.all(appends.map((append) => append.done));
    assert.deepEqual(order, ['a', 'b', 'c', 'd', 'e']);
    assert.deepEqual(await recordKeys(log), ['a', 'b', 'c', 'd', 'e']);
    await log.close();
  });
});

test('a failed sync refuses its group, the group written behind it and every queued append; the log keeps only what was acknowledged', async () => {
  await withDir(async (dir) => {
    const fs = new GatedFs();
    const log = await SegmentLog.open(fs, dir, SEGMENT_BYTES, () => []);
    const refusedFrames: string[] = [];
    log.onFramesRefused((refused) => refusedFrames.push(...refused.map((frame) => frame.record.key)));
    const order: string[] = [];
    const a = track(log, 'a', order);
    await until(() => fs.syncs.length === 1, 'the sync of a');
    syncAt(fs, 0).release();
    await a.done;
    const b = track(log, 'b', order);
    await until(() => fs.syncs.length === 2, 'the sync of b');
    const c = track(log, 'c', order);
    await until(() => fs.writes.length === 3, 'c written behind b');
    const d = track(log, 'd', order);
    syncAt(fs, 1).release(Object.assign(new Error('EIO: injected'), { code: 'EIO' }));
    await Promise.all([b.done, c.done, d.done]);
    assert.deepEqual([b.state.value, c.state.value, d.state.value], ['refused', 'refused', 'refused']);
    assert.deepEqual(refusedFrames, ['d', 'c', 'b'], 'offsets are given back newest first');
    assert.equal(fs.syncs.length, 2, 'nothing written behind the failure was synced');
    const e = track(log, 'e', order);
    await until(() => fs.syncs.length === 3, 'the sync of e');
    syncAt(fs, 2).release();
    await e.done;
    assert.deepEqual(order, ['a', 'e']);
    assert.deepEqual(await recordKeys(log), ['a', 'e'], 'the refused groups were cut from the file');
    await log.close();
  });
});

test('a flood of appends is cut into groups of at most MAX_GROUP_BYTES, each acknowledged once its own group is durable', async () => {
  await withDir(async (dir) => {
    const fs = new GatedFs();
    const log = await SegmentLog.open(fs, dir, SEGMENT_BYTES, () => []);
    const order: string[] = [];
    const first = track(log, 'first', order);
    await until(() => fs.syncs.length === 1, 'the first sync');
    // 40 appends of ~256 KiB (~10 MiB) queued while the first group syncs.
    const flood = Array.from({ length: 40 }, (_, i) => track(log, `f${i}`, order, 4, 64 * 1024));
    await releaseSyncsUntil(fs, () => flood.every((append) => append.state.value !== 'pending'));
    await first.done;
    assert.ok(Math.max(...fs.writes) <= MAX_GROUP_BYTES, `a write of ${Math.max(...fs.writes)} bytes`);
    assert.ok(fs.syncs.length >= 4, `~10 MiB in ${fs.syncs.length} groups`);
    assert.deepEqual(order, ['first', ...flood.map((_, i) => `f${i}`)]);
    await log.close();
  });
});

test('an append larger than a group is written alone, between the groups before and after it', async () => {
  await withDir(async (dir) => {
    const fs = new GatedFs();
    const log = await SegmentLog.open(fs, dir, SEGMENT_BYTES, () => []);
    const order: string[] = [];
    const a = track(log, 'a', order);
    await until(() => fs.syncs.length === 1, 'the first sync');
    const big = track(log, 'big', order, 1, MAX_GROUP_BYTES + 1024);
    const after = track(log, 'after', order);
    await releaseSyncsUntil(fs, () => after.state.value !== 'pending');
    await Promise.all([a.done, big.done]);
    assert.deepEqual(order, ['a', 'big', 'after']);
    assert.equal(fs.syncs.length, 3, 'the large append had a group of its own');
    assert.deepEqual(await recordKeys(log), ['a', 'big', 'after']);
    await log.close();
  });
});

test('a group that cannot be framed as sized (headers changed after publish) is refused unwritten, behind a sync that still acknowledges its own', async () => {
  await withDir(async (dir) => {
    const fs = new GatedFs();
    const log = await SegmentLog.open(fs, dir, SEGMENT_BYTES, () => []);
    const order: string[] = [];
    const a = track(log, 'a', order);
    await until(() => fs.syncs.length === 1, 'the sync of a');
    const grown = frames('b');
    const shrunk = frames('c');
    for (const [append, headers] of [
      [grown, { grown: 'after it was sized' }],
      [shrunk, undefined],
    ] as const) {
      const [frame] = append;
      assert.ok(frame !== undefined);
      frame.record.headers = headers;
    }
    shrunk[0]!.bytes += 1;
    const b = log.append(grown, () => []);
    syncAt(fs, 0).release();
    await a.done;
    await assert.rejects(b, RangeError, 'framing past the buffer sized for it');
    await assert.rejects(
      log.append(shrunk, () => []),
      /framed \d+ bytes where \d+ were sized/,
    );
    assert.equal(fs.writes.length, 1, 'nothing of b or c was written');
    const d = track(log, 'd', order);
    await releaseSyncsUntil(fs, () => d.state.value !== 'pending');
    assert.deepEqual(order, ['a', 'd']);
    assert.deepEqual(await recordKeys(log), ['a', 'd']);
    await log.close();
  });
});
