import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Bus, BusMessage, BusRecord, TopicSpec } from '../model/bus.js';
import { partitionForKey } from '../util/murmur2.js';

/**
 * What every Bus does, the embedded one and Kafka alike: the contract the components are written
 * against (model/bus.ts). Run by each implementation's test file with a way to open it on its
 * storage; each test uses topics and groups of its own, so one broker serves the whole suite.
 */

export interface BusUnderTest {
  /** Opens a bus on the suite's storage: a bus opened again sees what an earlier one stored and committed. */
  open(): Promise<Bus>;
  /** How long a condition may take to come true (a Kafka group join takes seconds on a loaded machine). */
  timeoutMs: number;
}

const PARTITIONS = 4;

function spec(name: string, partitions = PARTITIONS): TopicSpec {
  return { name, partitions, retentionMs: 3_600_000, maxMessageBytes: 10_000 };
}

function messages(prefix: string, count: number, keys = 5): BusMessage[] {
  return Array.from({ length: count }, (_, index) => ({
    key: `${prefix}-key-${index % keys}`,
    value: Buffer.from(`${prefix}:${index}`),
    headers: { 'svc-signal': 'traces', n: String(index) },
  }));
}

async function endTotal(bus: Bus, group: string, topic: string): Promise<bigint> {
  return (await bus.offsets(group, topic)).reduce((sum, row) => sum + row.end, 0n);
}

async function committedTotal(bus: Bus, group: string, topic: string): Promise<bigint> {
  return (await bus.offsets(group, topic)).reduce((sum, row) => sum + row.committed, 0n);
}

function values(records: readonly { value: Buffer }[]): string[] {
  return records.map((record) => record.value.toString());
}

export function busConformance(name: string, under: BusUnderTest): void {
  const until = async (what: string, check: () => boolean | Promise<boolean>): Promise<void> => {
    const deadlineMs = Date.now() + under.timeoutMs;
    while (!(await check())) {
      if (Date.now() > deadlineMs) throw new Error(`${name}: timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };

  /** Opens a bus with `topics` for one test and closes it afterwards, also when the test fails. */
  const withBus = async (topics: TopicSpec[], run: (bus: Bus) => Promise<void>): Promise<void> => {
    const bus = await under.open();
    try {
      await bus.ensureTopics(topics);
      await run(bus);
    } finally {
      await bus.close();
    }
  };

  test(`${name}: publish resolves once the records are taken; every group of the topic gets each record with its key, value, headers, topic and offset`, async () => {
    await withBus([spec('conf-publish')], async (bus) => {
      const a: BusRecord[] = [];
      const b: BusRecord[] = [];
      const consumers = [
        bus.consume({ group: 'conf-publish-a', topics: ['conf-publish'], handler: async (records) => void a.push(...records) }),
        bus.consume({ group: 'conf-publish-b', topics: ['conf-publish'], handler: async (records) => void b.push(...records) }),
      ];
      const published = messages('p', 30);
      await bus.publish('conf-publish', published);
      assert.equal(await endTotal(bus, 'conf-publish-a', 'conf-publish'), 30n, 'the end offsets count the acknowledged records');
      await until('both groups to get all 30', () => a.length >= 30 && b.length >= 30);
      for (const seen of [a, b]) assert.deepEqual(new Set(values(seen)), new Set(values(published)));
      const first = a.find((record) => record.headers?.n === '0');
      assert.ok(first !== undefined);
      assert.equal(first.key, 'p-key-0');
      assert.equal(first.topic, 'conf-publish');
      assert.deepEqual(first.headers, { 'svc-signal': 'traces', n: '0' });
      assert.equal(typeof first.offset, 'bigint');
      await Promise.all(consumers.map((consumer) => consumer.close()));
    });
  });

  test(`${name}: a key always lands on Kafka's default partition for it, and records of a key arrive in the order published`, async () => {
    await withBus([spec('conf-keys')], async (bus) => {
      for (let round = 0; round < 4; round++)
        await bus.publish(
          'conf-keys',
          messages(`r${round}`, 10, 10).map((message, index) => ({ ...message, key: `k${index}` })),
        );
      const seen: BusRecord[] = [];
      const consumer = bus.consume({ group: 'conf-keys-g', topics: ['conf-keys'], maxBatchRecords: 3, handler: async (records) => void seen.push(...records) });
      await until('all 40 records', () => seen.length >= 40);
      for (let index = 0; index < 10; index++) {
        const ofKey = seen.filter((record) => record.key === `k${index}`);
        assert.ok(
          ofKey.every((record) => record.partition === partitionForKey(`k${index}`, PARTITIONS)),
          `k${index} on partition ${partitionForKey(`k${index}`, PARTITIONS)}`,
        );
        assert.deepEqual(
          values(ofKey),
          [0, 1, 2, 3].map((round) => `r${round}:${index}`),
        );
        const offsets = ofKey.map((record) => record.offset);
        assert.deepEqual(
          offsets,
          [...offsets].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0)),
          'offsets rise within a partition',
        );
      }
      await consumer.close();
    });
  });

  test(`${name}: offsets are committed only after the handler resolved; the lag table reads end minus committed per partition`, async () => {
    await withBus([spec('conf-commit')], async (bus) => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      let handed = 0;
      const held = bus.consume({
        group: 'conf-commit-held',
        topics: ['conf-commit'],
        handler: async (records) => {
          handed += records.length;
          await gate;
        },
      });
      await bus.publish('conf-commit', messages('c', 12));
      await until('a delivery to the held group', () => handed > 0);
      // A second group that commits everything: by then the held group would have committed too,
      // had it committed before its handler resolved.
      const control = bus.consume({ group: 'conf-commit-control', topics: ['conf-commit'], handler: async () => undefined });
      await until('the control group to commit all 12', async () => (await committedTotal(bus, 'conf-commit-control', 'conf-commit')) === 12n);
      await control.close();
      const rows = await bus.offsets('conf-commit-held', 'conf-commit');
      assert.equal(rows.length, PARTITIONS);
      assert.deepEqual(rows.map((row) => row.partition).sort(), [0, 1, 2, 3]);
      assert.ok(rows.every((row) => row.topic === 'conf-commit'));
      assert.equal(
        rows.reduce((sum, row) => sum + row.end, 0n),
        12n,
      );
      assert.equal(
        rows.reduce((sum, row) => sum + row.committed, 0n),
        0n,
        'nothing committed while the handler has not resolved',
      );
      const listed = await bus.groups();
      assert.deepEqual(
        listed.find((entry) => entry.group === 'conf-commit-control'),
        { group: 'conf-commit-control', topics: ['conf-commit'] },
        'a closed group with commits is listed',
      );
      release();
      await until('the held group to commit all 12', async () => (await committedTotal(bus, 'conf-commit-held', 'conf-commit')) === 12n);
      const after = await bus.offsets('conf-commit-held', 'conf-commit');
      assert.ok(after.every((row) => row.committed === row.end));
      await held.close();
    });
  });

  test(`${name}: a failed batch is delivered again, and nothing after it in its partition is committed before it`, async () => {
    await withBus([spec('conf-retry', 1)], async (bus) => {
      await bus.publish('conf-retry', [
        { key: 'k', value: Buffer.from('x') },
        { key: 'k', value: Buffer.from('y') },
      ]);
      const deliveries: string[] = [];
      let failures = 1;
      let committedAtFailure: bigint | undefined;
      const consumer = bus.consume({
        group: 'conf-retry-g',
        topics: ['conf-retry'],
        maxBatchRecords: 1,
        maxInFlightBatches: 4,
        handler: async (records) => {
          const value = records[0]?.value.toString() ?? '';
          deliveries.push(value);
          if (value === 'x' && failures-- > 0) {
            // 'y' runs and resolves meanwhile: its commit must still wait for 'x'.
            await until('y to be handed out', () => deliveries.includes('y'));
            await new Promise((resolve) => setTimeout(resolve, 50));
            committedAtFailure = await committedTotal(bus, 'conf-retry-g', 'conf-retry');
            throw new Error('store down');
          }
        },
      });
      await until('x delivered twice', () => deliveries.filter((value) => value === 'x').length === 2);
      await until('both committed', async () => (await committedTotal(bus, 'conf-retry-g', 'conf-retry')) === 2n);
      assert.equal(committedAtFailure, 0n, 'y was not committed ahead of the failed x');
      assert.equal(deliveries[0], 'x');
      await consumer.close();
    });
  });

  test(`${name}: a group resumes from its committed offsets, also on a bus opened again: what it committed is not delivered again`, async () => {
    await withBus([spec('conf-resume')], async (bus) => {
      const first: BusRecord[] = [];
      const consumer = bus.consume({ group: 'conf-resume-g', topics: ['conf-resume'], handler: async (records) => void first.push(...records) });
      await bus.publish('conf-resume', messages('one', 20));
      await until('the first 20 committed', async () => (await committedTotal(bus, 'conf-resume-g', 'conf-resume')) === 20n);
      await consumer.close();
      await bus.publish('conf-resume', messages('two', 10));
    });
    await withBus([spec('conf-resume')], async (bus) => {
      const second: BusRecord[] = [];
      const consumer = bus.consume({ group: 'conf-resume-g', topics: ['conf-resume'], handler: async (records) => void second.push(...records) });
      await until('the 10 published while the group was away', () => second.length >= 10);
      await until('their commit', async () => (await committedTotal(bus, 'conf-resume-g', 'conf-resume')) === 30n);
      assert.deepEqual(new Set(values(second).map((value) => value.split(':')[0])), new Set(['two']));
      assert.equal(second.length, 10);
      await bus.publish('conf-resume', messages('three', 1));
      assert.equal(await endTotal(bus, 'conf-resume-g', 'conf-resume'), 31n, 'offsets go on, never reused');
      await consumer.close();
    });
  });

  test(`${name}: close stops the consumers and refuses later publishes`, async () => {
    const bus = await under.open();
    await bus.ensureTopics([spec('conf-close')]);
    const seen: BusRecord[] = [];
    const consumer = bus.consume({ group: 'conf-close-g', topics: ['conf-close'], handler: async (records) => void seen.push(...records) });
    await bus.publish('conf-close', messages('c', 5));
    await until('the 5 records', () => seen.length >= 5);
    await until('their commit', async () => (await committedTotal(bus, 'conf-close-g', 'conf-close')) === 5n);
    await bus.close();
    await consumer.close(); // already closed with the bus: a second close is harmless
    await assert.rejects(bus.publish('conf-close', messages('late', 1)), /closed/);
  });
}
