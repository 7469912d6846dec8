import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BusRecord, TopicSpec } from '../../model/bus.js';
import { DiskBus, type DiskBusOptions } from './disk-bus.js';

/** Helpers of the embedded bus's tests. */

export const TOPICS: TopicSpec[] = [
  { name: 'signals', partitions: 4, retentionMs: -1, maxMessageBytes: 1 << 20 },
  { name: 'logs', partitions: 2, retentionMs: -1, maxMessageBytes: 1 << 20 },
  { name: 'stories', partitions: 1, retentionMs: -1, maxMessageBytes: 1 << 20 },
];

export async function withDir(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-disk-bus-'));
  try {
    await run(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function openBus(dir: string, options: Partial<DiskBusOptions> = {}): Promise<DiskBus> {
  const bus = await DiskBus.open({ dir, maxBytes: 64 * 1024 * 1024, offsetsFlushMs: 10, ...options });
  await bus.ensureTopics(TOPICS);
  return bus;
}

export function messages(prefix: string, count: number, valueBytes = 16) {
  return Array.from({ length: count }, (_, i) => ({
    key: `${prefix}-${i % 7}`,
    value: Buffer.from(`${prefix}:${i}:`.padEnd(valueBytes, 'x')),
    headers: { 'svc-signal': 'traces', n: String(i) },
  }));
}

/** Resolves once `predicate` holds, checking as often as the event loop allows; fails after `timeoutMs`. */
export async function until(predicate: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await predicate())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

export function collector() {
  const seen: BusRecord[] = [];
  return { seen, handler: async (records: BusRecord[]) => void seen.push(...records) };
}

export async function lag(bus: DiskBus, group: string, topic: string): Promise<bigint> {
  let total = 0n;
  for (const p of await bus.offsets(group, topic)) total += p.end - p.committed;
  return total;
}

/**
 * A segment file's bytes up to the end of its last frame: the tests' records end in their values'
 * non-zero padding, and a segment begun in zeroed space has only zeros after its frames.
 */
export function framesEnd(bytes: Buffer): number {
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end -= 1;
  return end;
}
