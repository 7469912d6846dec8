import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemoryBus } from './memory-bus.js';
import { BusFullError, type BusRecord } from '../../model/bus.js';
import { murmur2, partitionForKey } from '../../util/murmur2.js';

const topic = { name: 't', partitions: 4, retentionMs: 86_400_000, maxMessageBytes: 1_000_000 };

function message(key: string, body: string) {
  return { key, value: Buffer.from(body) };
}

test('murmur2 matches the values Kafka computes', () => {
  // Reference values from Kafka's Utils.murmur2 test vectors.
  assert.equal(murmur2(Buffer.from('21')), -973932308);
  assert.equal(murmur2(Buffer.from('foobar')), -790332482);
  assert.equal(murmur2(Buffer.from('a-little-bit-long-string')), -985981536);
  assert.equal(murmur2(Buffer.from('a-little-bit-longer-string')), -1486304829);
  assert.equal(murmur2(Buffer.from('lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8')), -58897971);
  assert.equal(murmur2(Buffer.from('abc')), 479470107);
});

test('publish resolves only after the durable group commits, and records keep key order per partition', async () => {
  const bus = new MemoryBus({ durableGroups: { t: 'writer' }, maxBufferedBytes: 1 << 20 });
  await bus.ensureTopics([topic]);
  const seen: BusRecord[] = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  bus.consume({ group: 'writer', topics: ['t'], handler: async (records) => { seen.push(...records); await gate; } });
  let acknowledged = false;
  const publishing = bus.publish('t', [message('k1', 'a'), message('k1', 'b'), message('k2', 'c')]).then(() => (acknowledged = true));
  // Every record reached the held handler: the durable group cannot commit, so no acknowledgement yet.
  for (const deadlineMs = Date.now() + 10_000; seen.length < 3; ) {
    if (Date.now() > deadlineMs) throw new Error('timed out waiting for the three records at the handler');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  assert.equal(acknowledged, false, 'not acknowledged before the durable group committed');
  assert.equal(seen.length, 3);
  release();
  await publishing;
  assert.equal(acknowledged, true);
  const k1 = seen.filter((record) => record.key === 'k1');
  assert.deepEqual(k1.map((record) => record.value.toString()), ['a', 'b']);
  assert.equal(k1[0].partition, partitionForKey('k1', 4));
  const offsets = await bus.offsets('writer', 't');
  const total = offsets.reduce((sum, row) => sum + Number(row.end - row.committed), 0);
  assert.equal(total, 0);
  assert.equal(bus.heldBytes, 0, 'committed records are released');
  await bus.close();
});

test('a failed batch is delivered again and nothing after it commits first', async () => {
  const bus = new MemoryBus({ durableGroups: { t: 'g' }, maxBufferedBytes: 1 << 20 });
  await bus.ensureTopics([{ ...topic, partitions: 1 }]);
  const deliveries: string[] = [];
  let failures = 1;
  bus.consume({
    group: 'g',
    topics: ['t'],
    maxBatchRecords: 1,
    handler: async (records) => {
      deliveries.push(records[0].value.toString());
      if (records[0].value.toString() === 'x' && failures-- > 0) throw new Error('store down');
    },
  });
  await bus.publish('t', [message('k', 'x'), message('k', 'y')]);
  assert.deepEqual(deliveries.slice(0, 1), ['x']);
  assert.ok(deliveries.filter((value) => value === 'x').length === 2, `redelivered: ${deliveries.join(',')}`);
  const [row] = await bus.offsets('g', 't');
  assert.equal(row.committed, 2n);
  await bus.close();
});

test('publishing past the byte bound fails with BusFullError instead of dropping', async () => {
  const bus = new MemoryBus({ durableGroups: {}, maxBufferedBytes: 10 });
  await bus.ensureTopics([topic]);
  bus.consume({ group: 'slow', topics: ['t'], handler: () => new Promise(() => {}) });
  await bus.publish('t', [message('k', '12345678')]);
  await assert.rejects(bus.publish('t', [message('k', '12345678')]), BusFullError);
});

test('lag is end minus committed per partition, and groups are listed', async () => {
  const bus = new MemoryBus({ durableGroups: {}, maxBufferedBytes: 1 << 20 });
  await bus.ensureTopics([topic]);
  bus.consume({ group: 'stuck', topics: ['t'], handler: () => new Promise(() => {}) });
  await bus.publish('t', [message('a', '1'), message('b', '2'), message('c', '3')]);
  const rows = await bus.offsets('stuck', 't');
  assert.equal(rows.length, 4);
  assert.equal(rows.reduce((sum, row) => sum + row.end, 0n), 3n);
  assert.equal(rows.reduce((sum, row) => sum + row.committed, 0n), 0n);
  assert.deepEqual(await bus.groups(), [{ group: 'stuck', topics: ['t'] }]);
});

test('a topic nobody consumes keeps only its newest bytes', async () => {
  const bus = new MemoryBus({ durableGroups: {}, maxBufferedBytes: 1 << 20, unconsumedRetentionBytes: 6 });
  await bus.ensureTopics([{ ...topic, partitions: 1 }]);
  for (let i = 0; i < 5; i++) await bus.publish('t', [message('k', 'ab')]);
  assert.equal(bus.heldBytes, 0, 'unconsumed topics do not count against the back-pressure bound');
  const [row] = await bus.offsets('nobody', 't');
  assert.equal(row.end, 5n);
});
