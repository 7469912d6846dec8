/** The recorder against real chDB (one engine per test file) and real local HTTP targets. */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Store } from '../model/store.js';
import { createStore } from '../store/create-store.js';
import { migrate } from '../store/migrate.js';
import { createLogger } from '../util/log.js';
import { createRecorder, IN_PROCESS_INSTANCE, MAX_SAMPLES_PER_TICK } from './recorder.js';

interface StoredSample {
  ts_ms: string;
  job: string;
  instance: string;
  metric: string;
  labels: Record<string, string>;
  value: number;
}

const dir = mkdtempSync(join(tmpdir(), 'svc-recorder-'));
let store: Store;
/** Recent, because the table's TTL drops older rows in background merges. */
let clockMs = Date.now() - 3_600_000;

before(async () => {
  store = await createStore({ clickhouse: { url: '', database: 'svc_recorder' }, embedded: { data_dir: join(dir, 'data') } });
  await migrate(store);
});
after(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Each test records at its own clock reading and reads back only that tick. */
function nextTick(): number {
  clockMs += 60_000;
  return clockMs;
}

async function samplesAt(tsMs: number): Promise<StoredSample[]> {
  return store.query<StoredSample>(
    'SELECT ts_ms, job, instance, metric, labels, value FROM metric_samples WHERE ts_ms = {ts:Int64} ORDER BY job, instance, metric, toString(labels)',
    { ts: tsMs },
  );
}

/**
 * Resolves once a recorder started now on a one-second interval has made its second pass: by then
 * a recorder whose interval was armed earlier (or not at all) would have made a pass too.
 */
async function oneIntervalLater(registry: Registry): Promise<void> {
  let witnessPasses = 0;
  const witnessTs = nextTick();
  const witness = createRecorder(
    { record_secs: 1, metric_targets: [] },
    { store, logger: createLogger('silent'), sources: new Map([['svc-notifier', registry]]), nowMs: () => witnessTs + witnessPasses++ },
  );
  await witness.start();
  for (const deadlineMs = Date.now() + 10_000; witnessPasses < 2;) {
    if (Date.now() > deadlineMs) throw new Error("timed out waiting for the witness recorder's second pass");
    await new Promise((done) => setTimeout(done, 50));
  }
  await witness.close();
}

function listen(server: Server): Promise<number> {
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done((server.address() as AddressInfo).port)));
}

describe('recorder', () => {
  it('records every in-process registry under its job, with up 1 and raw histogram parts', async () => {
    const ingest = new Registry();
    const api = new Registry();
    new Counter({ name: 'svc_ingest_records_published_total', help: 'h', registers: [ingest] }).inc(42);
    new Histogram({ name: 'svc_api_request_duration_seconds', help: 'h', labelNames: ['route'], buckets: [0.1, 1], registers: [api] }).observe(
      { route: '/x' },
      0.5,
    );
    new Gauge({ name: 'svc_logminer_templates', help: 'h', registers: [api] }).set(Number.NaN);
    const tsMs = nextTick();
    const recorder = createRecorder(
      { record_secs: 15, metric_targets: [] },
      {
        store,
        logger: createLogger('silent'),
        sources: new Map([
          ['svc-ingest', ingest],
          ['svc-api', api],
        ]),
        nowMs: () => tsMs,
      },
    );
    const result = await recorder.recordOnce();
    assert.deepEqual(result.down, []);
    const rows = await samplesAt(tsMs);
    assert.equal(result.written, rows.length);
    const plain = rows.map((r) => [r.job, r.instance, r.metric, r.labels, r.value]);
    assert.deepEqual(plain, [
      ['svc-api', IN_PROCESS_INSTANCE, 'svc_api_request_duration_seconds_bucket', { le: '+Inf', route: '/x' }, 1],
      ['svc-api', IN_PROCESS_INSTANCE, 'svc_api_request_duration_seconds_bucket', { le: '0.1', route: '/x' }, 0],
      ['svc-api', IN_PROCESS_INSTANCE, 'svc_api_request_duration_seconds_bucket', { le: '1', route: '/x' }, 1],
      ['svc-api', IN_PROCESS_INSTANCE, 'svc_api_request_duration_seconds_count', { route: '/x' }, 1],
      ['svc-api', IN_PROCESS_INSTANCE, 'svc_api_request_duration_seconds_sum', { route: '/x' }, 0.5],
      ['svc-api', IN_PROCESS_INSTANCE, 'up', {}, 1],
      ['svc-ingest', IN_PROCESS_INSTANCE, 'svc_ingest_records_published_total', {}, 42],
      ['svc-ingest', IN_PROCESS_INSTANCE, 'up', {}, 1],
    ]);
  });

  it('scrapes each target: up 1 with its samples for a live one, up 0 for a dead one', async () => {
    const server = createServer((_request, response) => {
      response.setHeader('content-type', 'text/plain; version=0.0.4');
      response.end(`# TYPE svc_logminer_logs_mined_total counter\nsvc_logminer_logs_mined_total 7\nsvc_logminer_data_lag_seconds{partition="1"} 2.5\n`);
    });
    const livePort = await listen(server);
    const dead = createServer();
    const deadPort = await listen(dead);
    await new Promise((done) => dead.close(done));
    const tsMs = nextTick();
    try {
      const recorder = createRecorder(
        {
          record_secs: 15,
          metric_targets: [
            { job: 'svc-logminer', url: `http://127.0.0.1:${livePort}/metrics` },
            { job: 'svc-logminer', url: `http://127.0.0.1:${deadPort}/metrics` },
          ],
        },
        { store, logger: createLogger('silent'), sources: new Map(), nowMs: () => tsMs },
      );
      const result = await recorder.recordOnce();
      assert.deepEqual(result.down, [{ job: 'svc-logminer', instance: `127.0.0.1:${deadPort}` }]);
      const rows = (await samplesAt(tsMs)).map((r) => [r.job, r.instance, r.metric, r.labels, r.value]);
      const live = `127.0.0.1:${livePort}`;
      const expected = [
        ['svc-logminer', live, 'svc_logminer_data_lag_seconds', { partition: '1' }, 2.5],
        ['svc-logminer', live, 'svc_logminer_logs_mined_total', {}, 7],
        ['svc-logminer', live, 'up', {}, 1],
        ['svc-logminer', `127.0.0.1:${deadPort}`, 'up', {}, 0],
      ].sort((a, b) => String(a[1]).localeCompare(String(b[1])));
      assert.deepEqual(rows, expected);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  it('counts a target answering an error status as down', async () => {
    const server = createServer((_request, response) => {
      response.statusCode = 500;
      response.end('a 1\n');
    });
    const port = await listen(server);
    const tsMs = nextTick();
    try {
      const recorder = createRecorder(
        { record_secs: 15, metric_targets: [{ job: 'svc-writer', url: `http://127.0.0.1:${port}/metrics` }] },
        { store, logger: createLogger('silent'), sources: new Map(), nowMs: () => tsMs },
      );
      await recorder.recordOnce();
      assert.deepEqual(
        (await samplesAt(tsMs)).map((r) => [r.metric, r.value]),
        [['up', 0]],
      );
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  it('writes at most the per-tick bound, keeping up, and counts the rest', async () => {
    const registry = new Registry();
    const counter = new Counter({ name: 'svc_many_total', help: 'h', labelNames: ['n'], registers: [registry] });
    for (let n = 0; n < MAX_SAMPLES_PER_TICK + 10; n++) counter.inc({ n: String(n) });
    const own = new Registry();
    const tsMs = nextTick();
    const recorder = createRecorder(
      { record_secs: 15, metric_targets: [] },
      { store, logger: createLogger('silent'), sources: new Map([['svc-writer', registry]]), registry: own, nowMs: () => tsMs },
    );
    const result = await recorder.recordOnce();
    assert.equal(result.written, MAX_SAMPLES_PER_TICK);
    assert.equal(result.dropped, 11, 'ten over the bound, plus one for the up sample that went first');
    const counts = await store.query<{ n: string; up: string }>(
      "SELECT count() AS n, countIf(metric = 'up') AS up FROM metric_samples WHERE ts_ms = {ts:Int64}",
      { ts: tsMs },
    );
    assert.deepEqual(counts, [{ n: String(MAX_SAMPLES_PER_TICK), up: '1' }]);
    assert.match(await own.metrics(), /svc_api_recorder_dropped_samples_total 11/);
  });

  it('records at start and then on its interval, stops on close, and is off at 0', async () => {
    const registry = new Registry();
    new Gauge({ name: 'svc_interval_probe', help: 'h', registers: [registry] }).set(1);
    const firstTs = nextTick();
    let passes = 0;
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => lines.push(line) } as unknown as NodeJS.WritableStream);
    const recorder = createRecorder(
      { record_secs: 1, metric_targets: [] },
      { store, logger, sources: new Map([['svc-notifier', registry]]), nowMs: () => firstTs + passes++ },
    );
    await recorder.start();
    // The first pass runs at start, the next one a second later (later only if the first overran).
    for (const deadlineMs = Date.now() + 10_000; passes < 2 && Date.now() < deadlineMs;) await new Promise((done) => setTimeout(done, 50));
    await recorder.close();
    const stamps = await store.query<{ ts_ms: string }>(
      "SELECT DISTINCT ts_ms FROM metric_samples WHERE metric = 'svc_interval_probe' AND ts_ms >= {from:Int64} AND ts_ms < {to:Int64} ORDER BY ts_ms",
      { from: firstTs, to: firstTs + 1000 },
    );
    assert.deepEqual(
      stamps.map((row) => Number(row.ts_ms) - firstTs),
      [0, 1],
      'one pass at start and one on the interval',
    );
    const afterClose = passes;
    await oneIntervalLater(registry);
    assert.equal(passes, afterClose, 'no pass after close');
    assert.ok(
      lines.some((line) => line.includes('"level":40') && line.includes('record_secs below 5')),
      lines.join(''),
    );

    // With a long interval, the pass at start is the only one.
    let startPasses = 0;
    const startTs = nextTick();
    const slow = createRecorder(
      { record_secs: 600, metric_targets: [] },
      { store, logger: createLogger('silent'), sources: new Map([['svc-notifier', registry]]), nowMs: () => startTs + startPasses++ },
    );
    await slow.start();
    await slow.close();
    assert.equal(startPasses, 1);
    assert.ok((await samplesAt(startTs)).length > 0, 'the pass at start was written before close returned');

    const offTs = nextTick();
    let offPasses = 0;
    const off = createRecorder(
      { record_secs: 0, metric_targets: [] },
      { store, logger: createLogger('silent'), sources: new Map([['svc-notifier', registry]]), nowMs: () => offTs + offPasses++ },
    );
    await off.start();
    await oneIntervalLater(registry);
    await off.close();
    assert.equal(offPasses, 0, 'no pass at start nor on an interval');
    assert.deepEqual(await samplesAt(offTs), []);
  });
});
