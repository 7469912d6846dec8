import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DiskBus } from '../bus/disk/disk-bus.js';
import type { TopicSpec } from '../model/bus.js';

/**
 * The bus component tests run on: the embedded bus all-in-one ships, on a fresh temp dir that is
 * removed when the bus is closed.
 */
export async function openTestBus(topics: TopicSpec[], maxBytes = 64 * 1024 * 1024): Promise<DiskBus> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-test-bus-'));
  const bus = await DiskBus.open({ dir, maxBytes, offsetsFlushMs: 10 });
  await bus.ensureTopics(topics);
  const close = bus.close.bind(bus);
  bus.close = async () => {
    try {
      await close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  };
  return bus;
}
