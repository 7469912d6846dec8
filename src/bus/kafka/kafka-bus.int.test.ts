import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Admin, ConfigResourceTypes } from '@platformatic/kafka';
import { createKafkaBus, type KafkaBus } from './kafka-bus.js';
import { RECORD_BATCH_OVERHEAD_BYTES } from './topics.js';
import type { BusConsumer, BusRecord } from '../../model/bus.js';
import { partitionForKey } from '../../util/murmur2.js';
import { startKafka, type TestKafka } from '../../testing/kafka.js';
import { createLogger } from '../../util/log.js';
import { busConformance } from '../bus-conformance.test-support.js';

let kafka: TestKafka;
let bus: KafkaBus;
let admin: Admin;

before(async () => {
  kafka = await startKafka();
  bus = createKafkaBus({ brokers: kafka.brokers, clientId: 'bus-test', maxRecordBytes: 10_000 }, { logger: createLogger('error') });
  admin = new Admin({ clientId: 'bus-test-check', bootstrapBrokers: [kafka.brokers] });
});

after(async () => {
  await bus?.close();
  await admin?.close();
  await kafka?.stop();
});

// The contract every bus keeps, on this broker (each test opens a bus of its own).
busConformance('KafkaBus', {
  open: async () => createKafkaBus({ brokers: kafka.brokers, clientId: 'bus-conformance', maxRecordBytes: 10_000 }, { logger: createLogger('error') }),
  timeoutMs: 90_000,
});

const spec = (name: string, partitions = 4) => ({ name, partitions, retentionMs: 3_600_000, maxMessageBytes: 10_000 });

async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function topicConfig(topic: string): Promise<Record<string, string>> {
  const [description] = await admin.describeConfigs({
    resources: [{ resourceType: ConfigResourceTypes.TOPIC, resourceName: topic, configurationKeys: ['retention.ms', 'max.message.bytes'] }],
  });
  return Object.fromEntries(description.configs.map((config) => [config.name, String(config.value)]));
}

const committedTotal = async (group: string, topic: string) => (await bus.offsets(group, topic)).reduce((sum, row) => sum + row.committed, 0n);

test('ensureTopics creates absent topics with partitions, retention and message size, and never alters an existing one', async () => {
  await bus.ensureTopics([spec('created', 5), { ...spec('unlimited', 1), retentionMs: -1 }]);
  const metadata = await admin.metadata({ topics: ['created', 'unlimited'], forceUpdate: true });
  assert.equal(metadata.topics.get('created')?.partitionsCount, 5);
  assert.deepEqual(await topicConfig('created'), { 'retention.ms': '3600000', 'max.message.bytes': String(10_000 + RECORD_BATCH_OVERHEAD_BYTES) });
  assert.equal((await topicConfig('unlimited'))['retention.ms'], '-1');

  await bus.ensureTopics([{ name: 'created', partitions: 9, retentionMs: 60_000, maxMessageBytes: 500 }]);
  const again = await admin.metadata({ topics: ['created'], forceUpdate: true });
  assert.equal(again.topics.get('created')?.partitionsCount, 5, 'partitions unchanged');
  assert.equal((await topicConfig('created'))['retention.ms'], '3600000', 'retention unchanged');
});

test("groups() of a bus scoped to the service's topics lists only their groups, and an oversize record is refused", async () => {
  await bus.ensureTopics([spec('lagging')]);
  let handed = 0;
  let release!: () => void;
  const stuck = new Promise<void>((resolve) => (release = resolve));
  const consumer = bus.consume({
    group: 'stuck-g',
    topics: ['lagging'],
    handler: () => {
      handed += 1;
      return stuck;
    },
  });
  await bus.publish('lagging', [
    { key: 'a', value: Buffer.from('1') },
    { key: 'b', value: Buffer.from('2') },
    { key: 'c', value: Buffer.from('3') },
  ]);
  await waitFor('a delivery', () => handed > 0);
  await assert.rejects(bus.publish('lagging', [{ key: 'k', value: Buffer.alloc(10_001) }]), /exceeds kafka.max_record_bytes/);
  const scoped = createKafkaBus(
    { brokers: kafka.brokers, clientId: 'bus-test-scoped', maxRecordBytes: 10_000, onlyTopics: ['lagging'] },
    { logger: createLogger('error') },
  );
  assert.deepEqual(await scoped.groups(), [{ group: 'stuck-g', topics: ['lagging'] }], "only groups of the service's topics");
  await scoped.close();
  release();
  await consumer.close();
});

test('replicas in one group share the partitions, and the survivor takes them all when one leaves', async () => {
  await bus.ensureTopics([spec('shared')]);
  const byReplica: BusRecord[][] = [[], []];
  const join = (index: number) => bus.consume({ group: 'shared-g', topics: ['shared'], handler: async (records) => void byReplica[index].push(...records) });
  const first = join(0);
  const second = join(1);
  const keys = Array.from({ length: 40 }, (_, index) => `key-${index}`);
  // Until both have joined, one may hold every partition: publish until each has received some.
  await waitFor('records at both replicas', async () => {
    await bus.publish(
      'shared',
      keys.map((key) => ({ key, value: Buffer.from(key) })),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    return byReplica[0].length > 0 && byReplica[1].length > 0;
  });
  await first.close();
  const before = byReplica[1].length;
  await bus.publish(
    'shared',
    keys.map((key) => ({ key, value: Buffer.from(`after-${key}`) })),
  );
  // At least once: should the survivor's session restart during the rebalance, it reads again from
  // its last commits, so a record may come twice; every one must come.
  const afterValues = () => new Set(byReplica[1].map((record) => record.value.toString()).filter((value) => value.startsWith('after-')));
  await waitFor('every record at the survivor', () => afterValues().size === 40);
  assert.ok(byReplica[1].length >= before + 40);
  const afterPartitions = new Set(byReplica[1].filter((record) => record.value.toString().startsWith('after-')).map((record) => record.partition));
  assert.equal(afterPartitions.size, 4, 'the survivor reads all four partitions');
  await second.close();
});

test('a rebalance does not hand a replica again the records it holds uncommitted', async () => {
  await bus.ensureTopics([spec('held', 2)]);
  const keyOn = (partition: number) => Array.from({ length: 100 }, (_, index) => `held-${index}`).find((key) => partitionForKey(key, 2) === partition)!;
  const keys = [keyOn(0), keyOn(1)];
  await bus.publish(
    'held',
    keys.flatMap((key) => [0, 1, 2].map((n) => ({ key, value: Buffer.from(`${key}:${n}`) }))),
  );
  const atFirst: BusRecord[] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  // One record a batch: the first of each partition is done at once and commits; the rest wait.
  const first = bus.consume({
    group: 'held-g',
    topics: ['held'],
    maxBatchRecords: 1,
    handler: async (records) => {
      atFirst.push(...records);
      if (records[0].offset > 0n) await gate;
    },
  });
  const atSecond: BusRecord[] = [];
  let second: BusConsumer | undefined;
  try {
    await waitFor('all six records at the first replica', () => atFirst.length === 6);
    await waitFor('offset 1 committed on both partitions', async () => (await committedTotal('held-g', 'held')) === 2n);
    second = bus.consume({ group: 'held-g', topics: ['held'], handler: async (records) => void atSecond.push(...records) });
    // The second replica reads once the group has rebalanced, which the first replica joined too.
    await waitFor('records at the second replica', () => atSecond.length > 0);
    const moved = atSecond[0].partition;
    const kept = 1 - moved;
    // After the rebalance the client reads the kept partition again from its last commit (offset 1),
    // behind the two records the first replica holds, and then the record published now. (A fetch
    // sent before the rebalance may bring that record first and carry the client past the two.)
    await bus.publish('held', [{ key: keys[kept], value: Buffer.from('marker') }]);
    await waitFor('the marker at the first replica', () => atFirst.some((record) => record.value.toString() === 'marker'));
    const keptOffsets = atFirst.filter((record) => record.partition === kept).map((record) => record.offset);
    assert.deepEqual(keptOffsets, [0n, 1n, 2n, 3n], 'each record of the kept partition handed out once');
  } finally {
    // Also when an assertion failed: held batches would keep close() waiting forever.
    release();
  }
  await waitFor('commits up to the end', async () => (await committedTotal('held-g', 'held')) === 7n);
  await first.close();
  await second?.close();
});
