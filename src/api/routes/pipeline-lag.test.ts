/** GET /api/v1/pipeline/lag through createApi: the embedded bus, the 5 s shared read and the 503. */

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { openTestBus } from '../../testing/test-bus.js';
import type { Bus, PartitionOffsets } from '../../model/bus.js';
import type { Store } from '../../model/store.js';
import { createLogger } from '../../util/log.js';
import type { TraceRepo } from '../repo.js';
import { createApi } from '../server.js';
import { LAG_REFRESH_MS } from './pipeline-lag.js';
import { createPipelineRoutes } from './pipeline-routes.js';

/** The lag route reads neither traces nor the store; any call is a test failure. */
const unused = (): never => {
  throw new Error('not used by the lag route');
};
const noTraces: TraceRepo = { traceSpans: unused, traceLogs: unused, traceStoryId: unused, services: unused };
const noStore: Store = { query: unused, exec: unused, insert: unused, insertRaw: unused, database: 'unused', close: async () => undefined };

type LagBus = Pick<Bus, 'groups' | 'offsets'>;

async function openApi(bus: LagBus, clock: { nowMs: number }) {
  const registry = new Registry();
  const api = createApi(
    { listen: { host: '127.0.0.1', port: 0 }, queryTimeoutSecs: 15 },
    {
      traces: noTraces,
      registry,
      metricRegistries: [],
      logger: createLogger('silent'),
      routes: [createPipelineRoutes({ store: noStore, bus, registry, logger: createLogger('silent'), nowMs: () => clock.nowMs })],
      checkResponses: true,
    },
  );
  await api.app.ready();
  const get = async () => {
    const response = await api.app.inject({ method: 'GET', url: '/api/v1/pipeline/lag' });
    return { status: response.statusCode, body: JSON.parse(response.body), raw: response.body };
  };
  const lagErrors = async () => Number(/svc_api_lag_errors_total (\d+)/.exec(await registry.metrics())?.[1]);
  return { api, get, lagErrors };
}

/** A bus with fixed offsets that counts its reads and can be made to fail or to wait. */
class ScriptedBus implements LagBus {
  reads = 0;
  fail = false;
  gate: Promise<void> | undefined;
  async groups() {
    this.reads++;
    if (this.gate !== undefined) await this.gate;
    if (this.fail) throw new Error('broker unreachable');
    return [{ group: 'svc-writer', topics: ['svc.signals'] }];
  }
  async offsets(_group: string, topic: string): Promise<PartitionOffsets[]> {
    return [
      { topic, partition: 0, committed: 10n + BigInt(this.reads), end: 15n + BigInt(this.reads) },
      { topic, partition: 1, committed: 0n, end: 3n },
    ];
  }
}

describe('pipeline lag', () => {
  let bus: Bus;
  before(async () => {
    bus = await openTestBus([
      { name: 'svc.signals', partitions: 2, retentionMs: -1, maxMessageBytes: 1000 },
      { name: 'svc.logs', partitions: 1, retentionMs: -1, maxMessageBytes: 1000 },
    ]);
  });
  after(() => bus.close());

  it('lists every group and topic of the embedded bus with offsets summed over partitions', async () => {
    // Two groups; the logminer group holds on to its batch, so its offsets stay uncommitted.
    let release: () => void = () => undefined;
    const held = new Promise<void>((done) => (release = done));
    let delivered: () => void = () => undefined;
    const seen = new Promise<void>((done) => (delivered = done));
    const writer = bus.consume({ group: 'svc-writer', topics: ['svc.signals'], handler: async () => undefined });
    const miner = bus.consume({
      group: 'svc-logminer',
      topics: ['svc.logs'],
      handler: async () => {
        delivered();
        await held;
      },
    });
    await bus.publish('svc.signals', [
      { key: 'a', value: Buffer.from('1') },
      { key: 'b', value: Buffer.from('2') },
      { key: 'c', value: Buffer.from('3') },
    ]);
    await bus
      .publish('svc.logs', [
        { key: 'svc', value: Buffer.from('4') },
        { key: 'svc', value: Buffer.from('5') },
      ])
      .catch(() => undefined);
    await seen;
    // Let the writer's commits land.
    for (let i = 0; i < 50 && (await bus.offsets('svc-writer', 'svc.signals')).some((p) => p.committed !== p.end); i++)
      await new Promise((done) => setTimeout(done, 10));

    const { api, get } = await openApi(bus, { nowMs: 1_000_000 });
    try {
      const { status, body, raw } = await get();
      assert.equal(status, 200);
      assert.deepEqual(body, [
        { group: 'svc-logminer', topic: 'svc.logs', committed: 0, end: 2, lag: 2 },
        { group: 'svc-writer', topic: 'svc.signals', committed: 3, end: 3, lag: 0 },
      ]);
      assert.ok(!raw.includes('"3"'), 'offsets are JSON integers, not strings');
    } finally {
      release();
      await writer.close();
      await miner.close();
      await api.close();
    }
  });

  it('reads the bus at most every 5 s and shares one read between concurrent requests', async () => {
    const scripted = new ScriptedBus();
    const clock = { nowMs: 1_000_000 };
    const { api, get } = await openApi(scripted, clock);
    try {
      let open: () => void = () => undefined;
      scripted.gate = new Promise<void>((done) => (open = done));
      const concurrent = [get(), get(), get()];
      await new Promise((done) => setTimeout(done, 20));
      open();
      const answers = await Promise.all(concurrent);
      assert.equal(scripted.reads, 1, 'one read for three concurrent requests');
      for (const answer of answers) assert.deepEqual(answer.body, [{ group: 'svc-writer', topic: 'svc.signals', committed: 11, end: 19, lag: 8 }]);

      clock.nowMs += LAG_REFRESH_MS - 1;
      assert.equal((await get()).body[0].committed, 11, 'cached within 5 s');
      assert.equal(scripted.reads, 1);
      clock.nowMs += 1;
      assert.equal((await get()).body[0].committed, 12, 'read again after 5 s');
      assert.equal(scripted.reads, 2);
    } finally {
      await api.close();
    }
  });

  it('answers 503 kafka unavailable and counts svc_api_lag_errors_total when the bus cannot be read', async () => {
    const scripted = new ScriptedBus();
    scripted.fail = true;
    const clock = { nowMs: 1_000_000 };
    const { api, get, lagErrors } = await openApi(scripted, clock);
    try {
      assert.equal(await lagErrors(), 0);
      const [first, second] = await Promise.all([get(), get()]);
      assert.equal(first.status, 503);
      assert.deepEqual(first.body, { error: 'kafka unavailable' });
      assert.deepEqual(second.body, { error: 'kafka unavailable' });
      assert.equal(await lagErrors(), 1, 'one failed read, shared by both requests');

      // A failure is not retried for 5 s either; then a recovered bus answers again.
      scripted.fail = false;
      assert.equal((await get()).status, 503);
      clock.nowMs += LAG_REFRESH_MS;
      assert.equal((await get()).status, 200);
      assert.equal(await lagErrors(), 1);
    } finally {
      await api.close();
    }
  });

  it('answers 503 when offsets() rejects for one topic', async () => {
    const bus: LagBus = {
      groups: async () => [{ group: 'svc-assembler', topics: ['svc.signals'] }],
      offsets: async () => Promise.reject(new Error('coordinator not available')),
    };
    const { api, get, lagErrors } = await openApi(bus, { nowMs: 0 });
    try {
      const { status, body } = await get();
      assert.equal(status, 503);
      assert.deepEqual(body, { error: 'kafka unavailable' });
      assert.equal(await lagErrors(), 1);
    } finally {
      await api.close();
    }
  });
});
