/**
 * A target's breaker end to end: real HTTP receiver, embedded chDB (its own data directory, one
 * store for this file) and the embedded bus, with an injected clock for the cooldown.
 */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import type { Store } from '../model/store.js';
import { createStore } from '../store/create-store.js';
import { deliveryKey, readDeliveries } from '../store/deliveries.js';
import { migrate } from '../store/migrate.js';
import { FAILURES_TO_OPEN } from './breaker.js';
import { ALERTS_TOPIC, FakeClock, alertValue, metricValue, notifierSettings, startNotifier, startReceiver, waitFor } from './notifier.test-support.js';

const dataDir = mkdtempSync(join(tmpdir(), 'svc-notifier-breaker-test-'));
let store: Store;

before(async () => {
  store = await createStore({ clickhouse: { url: '', database: 'svc_notifier_breaker_test' }, embedded: { data_dir: dataDir } });
  await migrate(store);
});
after(async () => {
  await store?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

it('opens after repeated failures, gives each new alert one attempt while open, and recovers after the cooldown', async () => {
  const clock = new FakeClock();
  let failing = true;
  const receiver = await startReceiver(() => (failing ? { status: 503 } : { status: 200 }), clock.now);
  const run = await startNotifier(
    store,
    notifierSettings([{ name: 'pager', kind: 'webhook', url: receiver.url }], { max_attempts: 8, breaker_cooldown_secs: 300 }),
    clock,
  );
  const state = async (alertId: string) => (await readDeliveries(store, [alertId], clock.nowMs)).get(deliveryKey(alertId, 'pager'));
  const gauge = () => metricValue(run.registry, 'svc_notifier_breaker_open', 'target="pager"');
  const deliver = async (spec: Parameters<typeof alertValue>[0] = {}) => {
    const alert = alertValue({ last_at_ns: BigInt(clock.nowMs) * 1_000_000n, ...spec }, clock.nowMs);
    const before = receiver.received.length;
    await run.publish(alert);
    await waitFor(`final result of ${alert.alert_id}`, async () => ['delivered', 'failed'].includes((await state(alert.alert_id))?.result ?? ''));
    return { ...(await state(alert.alert_id)), requests: receiver.received.length - before };
  };
  try {
    assert.equal(await gauge(), 0);
    // Five failed attempts in a row open it; the alert that opened it was already being retried,
    // so it keeps all of its 8 attempts (backoffs 16 + 32 + 64 s stay inside the cooldown).
    assert.deepEqual(await deliver(), { result: 'failed', attempts: 8, requests: 8 });
    assert.ok(FAILURES_TO_OPEN < 8);
    assert.equal(await gauge(), 1);
    const openedAtMs = clock.nowMs;

    // While open, a new alert gets exactly one attempt, no retry.
    assert.deepEqual(await deliver(), { result: 'failed', attempts: 1, requests: 1 });
    assert.deepEqual(await deliver(), { result: 'failed', attempts: 1, requests: 1 });
    assert.equal(await gauge(), 1);

    // The cooldown ends: closed again, and retries resume (one failure, then success).
    clock.nowMs = openedAtMs + 300_000;
    assert.equal(await gauge(), 0);
    let answers = 0;
    receiver.respond = () => (answers++ === 0 ? { status: 503 } : { status: 200 });
    assert.deepEqual(await deliver(), { result: 'delivered', attempts: 2, requests: 2 });

    // Open it again; a success while open closes it before the cooldown ends.
    receiver.respond = () => (failing ? { status: 503 } : { status: 200 });
    assert.deepEqual(await deliver(), { result: 'failed', attempts: 8, requests: 8 });
    assert.equal(await gauge(), 1);
    failing = false;
    assert.deepEqual(await deliver(), { result: 'delivered', attempts: 1, requests: 1 });
    assert.equal(await gauge(), 0);
    await waitFor(
      'svc_notifier_deliveries_total{result="failed"} 4',
      async () => (await metricValue(run.registry, 'svc_notifier_deliveries_total', 'result="failed"')) === 4,
    );
    await waitFor(
      'svc_notifier_deliveries_total{result="delivered"} 2',
      async () => (await metricValue(run.registry, 'svc_notifier_deliveries_total', 'result="delivered"')) === 2,
    );
  } finally {
    await run.close();
    await receiver.close();
  }
});

it('an alert being retried when the breaker opens keeps its max_attempts, also with Retry-After; a new alert meanwhile gets one attempt', async () => {
  const clock = new FakeClock();
  const receiver = await startReceiver(() => ({ status: 503, headers: { 'retry-after': '2' } }), clock.now);
  const run = await startNotifier(
    store,
    notifierSettings([{ name: 'slow', kind: 'webhook', url: receiver.url }], { max_attempts: 8, breaker_cooldown_secs: 300 }),
    clock,
  );
  const state = async (alertId: string) => (await readDeliveries(store, [alertId], clock.nowMs)).get(deliveryKey(alertId, 'slow'));
  try {
    const first = alertValue({ last_at_ns: BigInt(clock.nowMs) * 1_000_000n }, clock.nowMs);
    await run.publish(first);
    await waitFor('breaker open', async () => (await metricValue(run.registry, 'svc_notifier_breaker_open', 'target="slow"')) === 1);
    const second = alertValue({ last_at_ns: BigInt(clock.nowMs) * 1_000_000n }, clock.nowMs);
    await run.publish(second);
    for (const alert of [first, second]) {
      await waitFor(`final result of ${alert.alert_id}`, async () => ['delivered', 'failed'].includes((await state(alert.alert_id))?.result ?? ''));
    }
    assert.deepEqual(await state(first.alert_id), { result: 'failed', attempts: 8 });
    assert.deepEqual(await state(second.alert_id), { result: 'failed', attempts: 1 });
    assert.equal(receiver.received.length, 9);
  } finally {
    await run.close();
    await receiver.close();
  }
});

it('keeps other targets delivering while one target is retrying or broken', async () => {
  const clock = new FakeClock();
  const broken = await startReceiver(() => ({ status: 500 }), clock.now);
  const healthy = await startReceiver(() => ({ status: 200 }), clock.now);
  // A sleep that never ends on its own: the broken target's retry waits for ever, the healthy one must not.
  const untilClosed = (_ms: number, signal: AbortSignal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
  const run = await startNotifier(
    store,
    notifierSettings([
      { name: 'broken', kind: 'webhook', url: broken.url },
      { name: 'healthy', kind: 'webhook', url: healthy.url },
    ]),
    { now: clock.now, sleep: untilClosed },
  );
  try {
    for (let i = 0; i < 3; i++) await run.publish(alertValue({}, clock.nowMs));
    await waitFor('healthy got all three', () => healthy.received.length === 3);
    // The broken target tried each alert once and now waits on their backoffs, holding no attempt.
    await waitFor('broken tried each once', () => broken.received.length === 3);
    await waitFor(
      'svc_notifier_queued_alerts{target="broken"} 3',
      async () => (await metricValue(run.registry, 'svc_notifier_queued_alerts', 'target="broken"')) === 3,
    );
  } finally {
    await run.close();
    await broken.close();
    await healthy.close();
  }
});

it('drops alerts past a full target queue as failed without an attempt, counted and logged once', async () => {
  const clock = new FakeClock();
  const broken = await startReceiver(() => ({ status: 500 }), clock.now);
  const untilClosed = (_ms: number, signal: AbortSignal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
  const run = await startNotifier(store, notifierSettings([{ name: 'full', kind: 'webhook', url: broken.url }]), { now: clock.now, sleep: untilClosed }, 2);
  try {
    const alerts = Array.from({ length: 4 }, () => alertValue({}, clock.nowMs));
    await run.bus.publish(
      ALERTS_TOPIC,
      alerts.map((a) => ({ key: 'same-partition', value: a.value })),
    );
    await waitFor('two dropped', async () => (await metricValue(run.registry, 'svc_notifier_dropped_total', 'target="full"')) === 2);
    await waitFor('two tried', () => broken.received.length === 2);
    const states = await readDeliveries(
      store,
      alerts.map((a) => a.alert_id),
      clock.nowMs,
    );
    assert.deepEqual(
      alerts.map((a) => states.get(deliveryKey(a.alert_id, 'full'))?.result),
      ['pending', 'pending', 'failed', 'failed'],
    );
    assert.equal(await metricValue(run.registry, 'svc_notifier_deliveries_total', 'result="failed"'), 2);
    await run.publish(alertValue({}, clock.nowMs));
    await waitFor('third dropped', async () => (await metricValue(run.registry, 'svc_notifier_dropped_total', 'target="full"')) === 3);
    assert.equal(
      run.logs
        .text()
        .split('\n')
        .filter((line) => line.includes('queue full')).length,
      1,
    );
  } finally {
    await run.close();
    await broken.close();
  }
});
