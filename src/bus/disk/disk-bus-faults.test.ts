import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { test } from 'node:test';
import { DiskBus } from './disk-bus.js';
import { collector, lag, messages, openBus, TOPICS, until, withDir } from './disk-bus.test-support.js';
import { FaultyFs, type Fault } from './faulty-fs.test-support.js';

/**
 * The embedded bus under failing disks: faults injected into single file-system calls while it
 * appends and while it rolls to a new segment. After each, every acknowledged record is read back
 * (by a second bus opened on the directory, as after a crash), nothing refused is, the partition
 * ends count exactly the acknowledged records, and the bus accepts again once the fault clears.
 */

const SEGMENT = /^\d+\.seg$/;
const SEGMENT_ASIDE = /^\d+\.seg\.tmp$/;
const DIRECTORY = /^svc-disk-bus-/;
const SEGMENT_BYTES = 8 * 1024;

type Batch = ReturnType<typeof messages>;

function valuesOf(batch: Batch): string[] {
  return batch.map((message) => message.value.toString());
}

/** Every record of `signals` in the log at `dir`, read by a bus of its own. */
async function readBack(dir: string): Promise<string[]> {
  const reader = await DiskBus.open({ dir, maxBytes: 64 * 1024 * 1024, offsetsFlushMs: 10 });
  const seen = collector();
  const consumer = reader.consume({ group: 'read-back', topics: ['signals'], handler: seen.handler });
  await until(async () => (await lag(reader, 'read-back', 'signals')) === 0n, 'the read-back group to reach the end');
  await consumer.close();
  await reader.close();
  return seen.seen.map((record) => record.value.toString()).sort();
}

async function endOffsets(bus: DiskBus): Promise<bigint> {
  return (await bus.offsets('nobody', 'signals')).reduce((sum, p) => sum + p.end, 0n);
}

/** A bus on a failing disk, and the values it acknowledged. */
async function faultyBus(dir: string, writeFrames = true) {
  const fs = new FaultyFs({ writeFrames });
  const bus = await openBus(dir, { fs, segmentBytes: SEGMENT_BYTES });
  const acknowledged: string[] = [];
  const publish = async (batch: Batch) => {
    await bus.publish('signals', batch);
    acknowledged.push(...valuesOf(batch));
  };
  return { fs, bus, acknowledged, publish };
}

/** What must hold after any fault once it cleared: acknowledged records read back, nothing else, ends exact. */
async function assertAcknowledgedKept(dir: string, bus: DiskBus, acknowledged: string[]): Promise<void> {
  assert.equal(await endOffsets(bus), BigInt(acknowledged.length), 'partition ends count the acknowledged records only');
  assert.deepEqual(await readBack(dir), [...acknowledged].sort());
}

/** Runs `scenario` on a bus over a failing disk; then, the fault cleared, checks what must hold after any fault. */
async function faultScenario(scenario: (run: Awaited<ReturnType<typeof faultyBus>> & { dir: string }) => Promise<void>, writeFrames = true): Promise<void> {
  await withDir(async (dir) => {
    const run = await faultyBus(dir, writeFrames);
    await scenario({ ...run, dir });
    run.fs.clear();
    await assertAcknowledgedKept(dir, run.bus, run.acknowledged);
    await run.bus.close();
  });
}

const APPEND_FAULTS: { name: string; fault: Fault }[] = [
  { name: 'a short write on a full disk (ENOSPC)', fault: { call: 'write', file: SEGMENT, code: 'ENOSPC', partial: true } },
  { name: 'a failing write (EIO)', fault: { call: 'write', file: SEGMENT, code: 'EIO' } },
  { name: 'a failing datasync (EIO)', fault: { call: 'datasync', file: SEGMENT, code: 'EIO' } },
];

// Both ways a group reaches the disk: one write-and-sync call (a group with nothing queued behind
// it, on the bus's I/O threads) and a write then a sync (files without that call).
for (const writeFrames of [true, false]) {
  for (const { name, fault } of APPEND_FAULTS) {
    const how = writeFrames ? 'in one call' : 'in two calls';
    test(`append (${how}): ${name} refuses the publishes it carried, keeps every acknowledged record, and the bus accepts again once it clears`, async () => {
      await faultScenario(async ({ fs, bus, publish }) => {
        await publish(messages('a', 5, 100));
        fs.inject(fault);
        await assert.rejects(bus.publish('signals', messages('b', 5, 100)), { code: fault.code });
        await assert.rejects(bus.publish('signals', messages('c', 5, 100)), { code: fault.code });
        fs.clear();
        await publish(messages('d', 5, 100));
      }, writeFrames);
    });
  }
}

const ROLL_FAULTS: { name: string; fault: Fault }[] = [
  { name: 'opening the new segment fails (ENOSPC)', fault: { call: 'open', file: SEGMENT_ASIDE, code: 'ENOSPC' } },
  { name: 'writing its snapshot fails (ENOSPC)', fault: { call: 'writeFile', file: SEGMENT_ASIDE, code: 'ENOSPC' } },
  { name: 'syncing it fails (EIO)', fault: { call: 'sync', file: SEGMENT_ASIDE, code: 'EIO' } },
  { name: 'renaming it into place fails (EIO)', fault: { call: 'rename', file: SEGMENT, code: 'EIO' } },
  { name: 'syncing the directory fails (EIO)', fault: { call: 'sync', file: DIRECTORY, code: 'EIO' } },
  { name: 'opening the renamed segment fails (EMFILE)', fault: { call: 'open', file: SEGMENT, code: 'EMFILE' } },
];

for (const { name, fault } of ROLL_FAULTS) {
  test(`roll: when ${name} after the frames were synced, those records stay acknowledged and kept, later publishes are refused until the roll succeeds`, async () => {
    await faultScenario(async ({ dir, fs, bus, publish }) => {
      await publish(messages('a', 5, 100));
      fs.inject(fault);
      // Fills the segment past its size: written, synced and acknowledged, then the roll fails.
      await publish(messages('b', 10, 1000));
      await until(() => fs.failures.length > 0, 'the roll to fail');
      await assert.rejects(bus.publish('signals', messages('c', 5, 100)), /could not begin a new log segment/);
      fs.clear();
      await publish(messages('d', 5, 100));
      assert.equal((await readdir(dir)).filter((file) => SEGMENT.test(file)).length, 2, 'the roll happened once the fault cleared');
    });
  });
}

test('roll: a roll that failed once is tried again before the next write, which then succeeds', async () => {
  await faultScenario(async ({ dir, fs, publish }) => {
    fs.inject({ call: 'open', file: SEGMENT_ASIDE, code: 'ENOSPC', times: 1 });
    await publish(messages('b', 10, 1000));
    await publish(messages('c', 5, 100));
    assert.deepEqual(fs.failures.length, 1);
    assert.equal((await readdir(dir)).filter((file) => SEGMENT.test(file)).length, 2);
  });
});

test('append: when the cut after a short write fails too, it is made before the next write, and what was acknowledged stays whole', async () => {
  await faultScenario(async ({ fs, bus, publish }) => {
    await publish(messages('a', 5, 100));
    fs.inject({ call: 'write', file: SEGMENT, code: 'ENOSPC', partial: true, times: 1 });
    fs.inject({ call: 'truncate', file: SEGMENT, code: 'EIO', times: 1 });
    await assert.rejects(bus.publish('signals', messages('b', 5, 1000)), { code: 'ENOSPC' });
    // Shorter than the half-written one: without the cut, its remains would follow in the file.
    await publish(messages('c', 1, 10));
    assert.equal(fs.count('truncate', SEGMENT), 2);
    await publish(messages('d', 5, 100));
  });
});

test('concurrent appends share one datasync: when it fails all of them are refused, and all of the next are acknowledged by one', async () => {
  await faultScenario(async ({ fs, bus, publish }) => {
    await publish(messages('a', 5, 100));
    const syncsBefore = fs.count('datasync', SEGMENT);
    fs.inject({ call: 'datasync', file: SEGMENT, code: 'EIO', times: 1 });
    const refused = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => bus.publish('signals', messages(`r${i}`, 3, 50))));
    assert.deepEqual(
      refused.map((result) => result.status),
      Array(20).fill('rejected'),
    );
    assert.equal(fs.count('datasync', SEGMENT) - syncsBefore, 1, 'the 20 appends shared one datasync');
    const batches = Array.from({ length: 20 }, (_, i) => messages(`k${i}`, 3, 50));
    await Promise.all(batches.map((batch) => publish(batch)));
    assert.equal(fs.count('datasync', SEGMENT) - syncsBefore, 2, 'and the next 20 shared one too');
  });
});

test('a failed write of the offsets file loses no commit that reached it later: the group resumes after a restart without redelivery', async () => {
  await withDir(async (dir) => {
    const fs = new FaultyFs();
    const errors: unknown[] = [];
    let bus = await openBus(dir, { fs, onConsumerError: (_group, error) => errors.push(error) });
    fs.inject({ call: 'rename', file: /^offsets\.json$/, code: 'EIO' });
    const first = collector();
    const consumer = bus.consume({ group: 'w', topics: ['signals'], handler: first.handler });
    await bus.publish('signals', messages('s', 30));
    await until(() => errors.length > 0, 'the offsets write to fail');
    assert.equal((errors[0] as NodeJS.ErrnoException).code, 'EIO');
    fs.clear();
    await until(async () => (await lag(bus, 'w', 'signals')) === 0n, 'the commit of all 30');
    await consumer.close();
    await bus.close();

    bus = await openBus(dir);
    const second = collector();
    const again = bus.consume({ group: 'w', topics: ['signals'], handler: second.handler });
    await bus.publish('signals', messages('t', 5));
    await until(() => second.seen.length >= 5, 'the records published after the restart');
    await until(async () => (await lag(bus, 'w', 'signals')) === 0n, 'the commit after the restart');
    assert.deepEqual(
      second.seen.map((record) => record.value.toString().split(':')[0]),
      Array(5).fill('t'),
    );
    await again.close();
    await bus.close();
  });
});

test('a failed write of the topics file refuses ensureTopics, and the next call writes the topics, so they survive a restart', async () => {
  await withDir(async (dir) => {
    const fs = new FaultyFs();
    let bus = await DiskBus.open({ dir, maxBytes: 64 * 1024 * 1024, fs });
    fs.inject({ call: 'rename', file: /^topics\.json$/, code: 'ENOSPC', times: 1 });
    await assert.rejects(bus.ensureTopics(TOPICS), { code: 'ENOSPC' });
    await assert.rejects(bus.publish('signals', messages('s', 1)), /unknown topic/);
    await bus.ensureTopics(TOPICS);
    // Concurrent calls are written one after the other, each file holding the topics before it.
    await Promise.all([bus.ensureTopics([{ ...TOPICS[0]!, name: 'extra-a' }]), bus.ensureTopics([{ ...TOPICS[0]!, name: 'extra-b' }])]);
    await bus.close();
    bus = await DiskBus.open({ dir, maxBytes: 64 * 1024 * 1024 });
    await bus.publish('signals', messages('s', 1));
    await bus.publish('extra-a', messages('a', 1));
    await bus.publish('extra-b', messages('b', 1));
    assert.deepEqual((await bus.offsets('w', 'logs')).length, 2, 'partition counts kept');
    await bus.close();
  });
});
