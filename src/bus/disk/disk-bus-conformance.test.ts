import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import { busConformance } from '../bus-conformance.test-support.js';
import { DiskBus } from './disk-bus.js';

let dir: string;
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-disk-bus-conformance-'));
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

busConformance('DiskBus', {
  open: () => DiskBus.open({ dir, maxBytes: 64 * 1024 * 1024, offsetsFlushMs: 10 }),
  timeoutMs: 20_000,
});
