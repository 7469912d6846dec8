/**
 * The durable embedded bus on its own (src/bus/disk): how fast publishes are acknowledged (written
 * and synced, the group commit shared by concurrent publishers) and how fast a group consumes,
 * from memory and from the log on disk. These figures chose the bus's storage (see disk-bus.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import type { BusMessage, BusRecord } from '../src/model/bus.js';
import { DiskBus } from '../src/bus/disk/disk-bus.js';

const TOPIC = { name: 'signals', partitions: 12, retentionMs: -1, maxMessageBytes: 1 << 20 };
const loadAverage = () =>
  os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');

function batch(records: number, valueBytes: number, sequence: number, prefix = 'trace'): BusMessage[] {
  return Array.from({ length: records }, (_, i) => ({
    key: `${prefix}-${sequence}-${i}`,
    value: Buffer.alloc(valueBytes, i),
    headers: { 'svc-signal': 'traces' },
  }));
}

function quantile(sortedMs: number[], q: number): number {
  return sortedMs[Math.min(sortedMs.length - 1, Math.floor(q * sortedMs.length))];
}

async function publishers(bus: DiskBus, count: number, seconds: number, records: number, valueBytes: number): Promise<string> {
  const latenciesMs: number[] = [];
  let published = 0;
  const deadlineMs = Date.now() + seconds * 1000;
  const startedMs = Date.now();
  await Promise.all(
    Array.from({ length: count }, async (_, publisher) => {
      for (let sequence = 0; Date.now() < deadlineMs; sequence++) {
        const started = process.hrtime.bigint();
        await bus.publish(TOPIC.name, batch(records, valueBytes, publisher * 1_000_000 + sequence));
        latenciesMs.push(Number(process.hrtime.bigint() - started) / 1e6);
        published += records;
      }
    }),
  );
  const secs = (Date.now() - startedMs) / 1000;
  latenciesMs.sort((a, b) => a - b);
  const mibPerSec = (published * valueBytes) / secs / 2 ** 20;
  return `${Math.round(published / secs)} records/s (${mibPerSec.toFixed(1)} MiB/s), publish acknowledged in median ${quantile(latenciesMs, 0.5).toFixed(2)} ms, p99 ${quantile(latenciesMs, 0.99).toFixed(2)} ms`;
}

async function consumeAll(bus: DiskBus, group: string, expected: number, counts: (record: BusRecord) => boolean = () => true): Promise<string> {
  let seen = 0;
  const startedMs = Date.now();
  let resolveDone!: () => void;
  const done = new Promise<void>((resolve) => (resolveDone = resolve));
  const consumer = bus.consume({
    group,
    topics: [TOPIC.name],
    maxBatchRecords: 500,
    handler: async (records: BusRecord[]) => {
      for (const record of records) if (counts(record)) seen += 1;
      if (seen >= expected) resolveDone();
    },
  });
  await done;
  const secs = (Date.now() - startedMs) / 1000;
  await consumer.close();
  return `${Math.round(seen / secs)} records/s`;
}

export async function main(): Promise<void> {
  const dir = await mkdtemp(join(os.tmpdir(), 'svc-bench-bus-'));
  try {
    let bus = await DiskBus.open({ dir, maxBytes: 8 * 1024 * 1024 * 1024 });
    await bus.ensureTopics([TOPIC]);
    // Records no group consumes are deleted with their segments: a reader group that takes one
    // record and then stops holds everything else for the read from disk below.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const holder = bus.consume({ group: 'reader', topics: [TOPIC.name], maxInFlightBatches: 1, maxBatchRecords: 1, handler: () => gate });
    for (const count of [1, 8, 64]) {
      console.log(`bus log: ${count} publisher(s) of 10 x 1 KiB records each: ${await publishers(bus, count, 5, 10, 1024)}; load average ${loadAverage()}`);
    }
    console.log(`bus log: 1 publisher of 50 x 2 KiB records (a 512-span export): ${await publishers(bus, 1, 5, 50, 2048)}`);
    const end = (await bus.offsets('reader', TOPIC.name)).reduce((sum, p) => sum + Number(p.end), 0) - 1;
    release();
    await holder.close();
    await bus.close();
    // Reopened: nothing in memory, so the group reads every record from the log on disk.
    bus = await DiskBus.open({ dir, maxBytes: 8 * 1024 * 1024 * 1024 });
    console.log(`bus log: one group reading ${end} records from disk: ${await consumeAll(bus, 'reader', end)}; load average ${loadAverage()}`);
    const live = 200_000;
    const memoryReader = consumeAll(bus, 'live', live, (record) => record.key.startsWith('live-'));
    for (let sent = 0; sent < live; sent += 1000) await bus.publish(TOPIC.name, batch(1000, 1024, sent, 'live'));
    console.log(`bus log: one group taking ${live} records as one publisher publishes them (from memory; bound by the publisher): ${await memoryReader}`);
    await bus.close();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
