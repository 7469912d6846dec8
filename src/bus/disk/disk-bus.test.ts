import assert from 'node:assert/strict';
import { open, readdir, readFile, stat, truncate } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { BusFullError } from '../../model/bus.js';
import { DiskBus } from './disk-bus.js';
import { collector, framesEnd, messages, openBus, TOPICS, until, withDir } from './disk-bus.test-support.js';

// Publishing, keyed partitions, groups, commits after processing, redelivery of a failed batch and
// resuming after a restart are the contract of every bus: see disk-bus-conformance.test.ts.

/** Publishes to `signals` as soon as the log has room; any refusal other than a full log fails the test. */
async function publishWhenRoom(bus: DiskBus, batch: ReturnType<typeof messages>, what: string): Promise<void> {
  await until(async () => {
    try {
      await bus.publish('signals', batch);
      return true;
    } catch (error) {
      assert.ok(error instanceof BusFullError);
      return false;
    }
  }, what);
}

test('a crash without close loses nothing published: records not committed are delivered again', async () => {
  await withDir(async (dir) => {
    const crashed = await openBus(dir, { offsetsFlushMs: 60_000 });
    const published = messages('s', 40);
    await crashed.publish('signals', published);
    // Never closed: as after kill -9, only what reached the files counts.
    const bus = await openBus(dir);
    const seen = collector();
    const consumer = bus.consume({ group: 'w', topics: ['signals'], handler: seen.handler });
    await until(() => seen.seen.length === 40, 'every published record after the crash');
    assert.deepEqual(new Set(seen.seen.map((record) => record.value.toString())), new Set(published.map((message) => message.value.toString())));
    await consumer.close();
    await bus.close();
  });
});

// A segment file is either its frames alone (grown by appends) or its frames followed by zeroed
// space (begun in space zeroed in advance): a tear is where the frames end, in both.
for (const layout of ['grown by appends', 'begun in zeroed space'] as const) {
  test(`a torn last record is cut on open (segment ${layout}); everything before it is delivered and new records follow`, async () => {
    await withDir(async (dir) => {
      const first = await openBus(dir);
      await first.publish('signals', messages('s', 20));
      await first.close();
      const [segment] = (await readdir(dir)).filter((name) => name.endsWith('.seg'));
      const path = join(dir, segment!);
      const before = framesEnd(await readFile(path));
      if (layout === 'grown by appends') await truncate(path, before);
      else assert.ok((await stat(path)).size > before, 'zeroed space follows the frames');
      // Half a frame: a length and checksum promising 500 bytes, followed by 10.
      const torn = Buffer.alloc(18);
      torn.writeUInt32LE(500, 0);
      torn.writeUInt32LE(0xdeadbeef, 4);
      const handle = await open(path, 'r+');
      await handle.write(torn, 0, torn.length, before);
      await handle.close();
      const sizeWithTear = (await stat(path)).size;

      const bus = await openBus(dir);
      assert.equal(bus.recovery.truncatedBytes, sizeWithTear - before);
      assert.equal((await stat(path)).size, before);
      await bus.publish('signals', messages('n', 5));
      const seen = collector();
      const consumer = bus.consume({ group: 'w', topics: ['signals'], handler: seen.handler });
      await until(() => seen.seen.length === 25, 'the 20 before the tear and the 5 after');
      await consumer.close();
      await bus.close();
    });
  });
}

test('a record whose bytes were damaged is cut with everything after it in that segment', async () => {
  await withDir(async (dir) => {
    const first = await openBus(dir);
    await first.publish('signals', messages('s', 3, 1000));
    await first.close();
    const [segment] = (await readdir(dir)).filter((name) => name.endsWith('.seg'));
    const end = framesEnd(await readFile(join(dir, segment!)));
    const handle = await open(join(dir, segment!), 'r+');
    await handle.write(Buffer.from('garbage'), 0, 7, end - 100); // inside the last record's value
    await handle.close();
    const bus = await openBus(dir);
    assert.ok(bus.recovery.truncatedBytes > 1000);
    const seen = collector();
    const consumer = bus.consume({ group: 'w', topics: ['signals'], handler: seen.handler });
    await until(() => seen.seen.length === 2, 'the two whole records');
    await consumer.close();
    await bus.close();
  });
});

test('segments every group has committed are deleted; a topic nobody consumes does not hold them', async () => {
  await withDir(async (dir) => {
    const bus = await openBus(dir, { segmentBytes: 64 * 1024 });
    const seen = collector();
    const consumer = bus.consume({ group: 'w', topics: ['signals'], handler: seen.handler });
    for (let round = 0; round < 20; round++) {
      await bus.publish('signals', messages(`r${round}`, 20, 1000));
      await bus.publish('stories', messages(`st${round}`, 2, 1000));
    }
    await until(() => seen.seen.length === 400, 'delivery');
    await until(async () => (await readdir(dir)).filter((name) => name.endsWith('.seg')).length === 1, 'deletion of committed segments');
    assert.ok(bus.diskBytes < 64 * 1024 + 30_000, `disk bytes ${bus.diskBytes}`);
    await consumer.close();
    await bus.close();
  });
});

test('a full log refuses with BusFullError and takes records again once consumers committed', async () => {
  await withDir(async (dir) => {
    const bus = await openBus(dir, { maxBytes: 200 * 1024, segmentBytes: 32 * 1024 });
    let refused = 0;
    for (let round = 0; round < 40; round++) {
      try {
        await bus.publish('signals', messages(`r${round}`, 10, 1000));
      } catch (error) {
        assert.ok(error instanceof BusFullError);
        refused += 1;
      }
    }
    assert.ok(refused > 0, 'some publishes were refused');
    assert.equal(bus.refused, refused);
    const accepted = (await bus.offsets('w', 'signals')).reduce((sum, p) => sum + p.end, 0n);
    assert.equal(accepted, BigInt((40 - refused) * 10), 'a refused publish takes no offsets');
    const seen = collector();
    const consumer = bus.consume({ group: 'w', topics: ['signals'], handler: seen.handler });
    await until(() => seen.seen.length === Number(accepted), 'delivery of what was accepted');
    await publishWhenRoom(bus, messages('after', 10, 1000), 'room again');
    await consumer.close();
    await bus.close();
  });
});

test('a group far behind reads from the log on disk when memory no longer holds its records', async () => {
  await withDir(async (dir) => {
    const bus = await openBus(dir, { maxTailBytes: 4096, segmentBytes: 16 * 1024 });
    for (let round = 0; round < 10; round++) await bus.publish('signals', messages(`r${round}`, 10, 500));
    const seen = collector();
    const consumer = bus.consume({ group: 'late', topics: ['signals'], handler: seen.handler, maxBatchRecords: 7 });
    await until(() => seen.seen.length === 100, 'all 100 from disk');
    assert.equal(new Set(seen.seen.map((record) => record.value.toString())).size, 100);
    await consumer.close();
    await bus.close();
  });
});

test('at the smallest bound the log still rolls and deletes, so a consumer keeping up never sees it full', async () => {
  await withDir(async (dir) => {
    const bus = await DiskBus.open({ dir, maxBytes: 16 * 1024 * 1024, offsetsFlushMs: 10 });
    await bus.ensureTopics(TOPICS);
    const seen = collector();
    const consumer = bus.consume({ group: 'w', topics: ['signals'], handler: seen.handler });
    // 48 MiB through a 16 MiB log: three times its bound.
    let published = 0;
    for (let round = 0; round < 48; round++) {
      const batch = messages(`r${round}`, 16, 64 * 1024);
      await publishWhenRoom(bus, batch, `room for round ${round}`);
      published += batch.length;
    }
    await until(() => seen.seen.length === published, 'delivery of everything');
    assert.ok(bus.diskBytes <= 16 * 1024 * 1024);
    await consumer.close();
    await bus.close();
  });
});

test('a group of a sparse topic gets full batches, though the log interleaves other topics between its records', async () => {
  await withDir(async (dir) => {
    const bus = await openBus(dir);
    for (let round = 0; round < 50; round++) {
      await bus.publish('signals', messages(`s${round}`, 40));
      await bus.publish('logs', messages(`l${round}`, 2));
    }
    const sizes: number[] = [];
    const consumer = bus.consume({ group: 'miner', topics: ['logs'], maxBatchRecords: 50, handler: async (records) => void sizes.push(records.length) });
    await until(() => sizes.reduce((sum, size) => sum + size, 0) === 100, 'every log record');
    assert.deepEqual(sizes, [50, 50], 'two full batches, not one per read of the interleaved log');
    await consumer.close();
    await bus.close();
  });
});

test('a publish is resolved before the consumers it wakes run their handlers', async () => {
  await withDir(async (dir) => {
    const bus = await openBus(dir);
    const seen = collector();
    const consumer = bus.consume({ group: 'w', topics: ['signals'], handler: seen.handler });
    await bus.publish('signals', messages('a', 1));
    await until(() => seen.seen.length === 1, 'the first record, so the consumer waits for the next');
    // An exporter waits for its answer, which ingest gives some promise steps after the publish
    // resolved (the acceptor's Promise.all and its async functions, then the transport's callback):
    // it comes before the consumers' work on the records it made durable.
    const answered = async (steps: number): Promise<void> => {
      if (steps === 0) return bus.publish('signals', messages('b', 1));
      await answered(steps - 1);
    };
    const handledAtAnswer = await answered(12).then(() => seen.seen.length);
    assert.equal(handledAtAnswer, 1);
    await until(() => seen.seen.length === 2, 'the second record, delivered after the answer');
    await consumer.close();
    await bus.close();
  });
});
