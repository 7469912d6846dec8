/**
 * The notifier against real things: a node:http receiver on 127.0.0.1, embedded chDB (one store
 * for this file: chDB binds one data directory per process) and the embedded bus. Time moves
 * through an injected clock and sleep, so backoffs of minutes take no time.
 */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Store } from '../model/store.js';
import { createStore } from '../store/create-store.js';
import { deliveryKey, readDeliveries } from '../store/deliveries.js';
import { migrate } from '../store/migrate.js';
import { NOTIFIER_GROUP } from './notifier.js';
import {
  ALERTS_TOPIC,
  FakeClock,
  alertValue,
  metricValue,
  nextAlertId,
  notifierSettings,
  ok,
  startNotifier,
  startReceiver,
  waitFor,
} from './notifier.test-support.js';

const dataDir = mkdtempSync(join(tmpdir(), 'svc-notifier-test-'));
let store: Store;

before(async () => {
  store = await createStore({ clickhouse: { url: '', database: 'svc_notifier_test' }, embedded: { data_dir: dataDir } });
  await migrate(store);
});
after(async () => {
  await store?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function stateOf(alertId: string, target: string, nowMs: number) {
  return (await readDeliveries(store, [alertId], nowMs)).get(deliveryKey(alertId, target));
}

describe('notifier delivery', () => {
  it('posts the webhook body with the documented field types and records delivered by target name', async () => {
    const clock = new FakeClock();
    const receiver = await startReceiver(ok, clock.now);
    const run = await startNotifier(store, notifierSettings([{ name: 'ops-hook', kind: 'webhook', url: `${receiver.url}/hook` }]), clock);
    try {
      const traces = ['a'.repeat(32), 'b'.repeat(32), 'c'.repeat(32), 'd'.repeat(32)];
      const alert = alertValue(
        {
          kind: 'spike',
          window_count: 42,
          peak_count: 50,
          baseline_per_window: 3.5,
          trace_ids: traces,
          last_at_ns: BigInt(clock.nowMs) * 1_000_000n + 987_654n,
        },
        clock.nowMs,
      );
      await run.publish(alert);
      await waitFor('one request', () => receiver.received.length === 1);
      await waitFor('delivered record', async () => (await stateOf(alert.alert_id, 'ops-hook', clock.nowMs))?.result === 'delivered');
      const request = receiver.received[0];
      assert.equal(request.path, '/hook');
      assert.equal(request.headers['content-type'], 'application/json');
      const body = JSON.parse(request.body) as Record<string, unknown>;
      assert.deepEqual(
        Object.keys(body).sort(),
        [
          'alert_id',
          'baseline',
          'count',
          'example_trace_ids',
          'kind',
          'last_at',
          'links',
          'service',
          'started_at',
          'summary',
          'template',
          'template_id',
        ].sort(),
      );
      for (const field of ['alert_id', 'kind', 'service', 'template_id', 'template', 'summary']) assert.equal(typeof body[field], 'string', field);
      assert.equal(body.template_id, '18446744073709551557');
      assert.match(body.started_at as string, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      assert.equal(body.last_at, new Date(clock.nowMs).toISOString());
      assert.ok(Number.isInteger(body.count));
      assert.equal(body.count, 42);
      assert.equal(body.baseline, 3.5);
      assert.deepEqual(body.example_trace_ids, traces);
      assert.deepEqual(
        body.links,
        traces.slice(0, 3).map((id) => `http://svc.example:8090/traces/${id}`),
      );
      assert.equal(body.summary, 'Log spike in checkout: "payment <*> declined" logged 42 times in the window (baseline 3.5)');
      assert.deepEqual(await stateOf(alert.alert_id, 'ops-hook', clock.nowMs), { result: 'delivered', attempts: 1 });
      await waitFor(
        'svc_notifier_deliveries_total{result="delivered"} 1',
        async () => (await metricValue(run.registry, 'svc_notifier_deliveries_total', 'result="delivered"')) === 1,
      );
    } finally {
      await run.close();
      await receiver.close();
    }
  });

  it('delivers an alert once per target, also when it is read again after a restart', async () => {
    const clock = new FakeClock();
    const receiverA = await startReceiver(ok, clock.now);
    const receiverB = await startReceiver(ok, clock.now);
    const settings = notifierSettings([
      { name: 'once-a', kind: 'webhook', url: receiverA.url },
      { name: 'once-b', kind: 'chat', url: receiverB.url },
    ]);
    const alertId = nextAlertId();
    const first = await startNotifier(store, settings, clock);
    try {
      await first.publish(alertValue({ alert_id: alertId }, clock.nowMs));
      await waitFor(
        'both recorded delivered',
        async () =>
          (await stateOf(alertId, 'once-a', clock.nowMs))?.result === 'delivered' && (await stateOf(alertId, 'once-b', clock.nowMs))?.result === 'delivered',
      );
      // A refresh (last_at grew) and a republish in the same run.
      clock.nowMs += 60_000;
      await first.publish(alertValue({ alert_id: alertId }, clock.nowMs));
      await first.publish(alertValue({ alert_id: alertId }, clock.nowMs));
      await waitFor('refreshes committed', async () => (await first.bus.offsets(NOTIFIER_GROUP, ALERTS_TOPIC)).every((p) => p.committed === p.end));
    } finally {
      await first.close();
    }
    // The restart: a new process state and a new embedded bus; only the store remains.
    clock.nowMs += 60_000;
    const second = await startNotifier(store, settings, clock);
    try {
      await second.publish(alertValue({ alert_id: alertId }, clock.nowMs));
      await waitFor('republish committed', async () => (await second.bus.offsets(NOTIFIER_GROUP, ALERTS_TOPIC)).every((p) => p.committed === p.end));
      // A fresh alert after it shows the sender loop is running, so the old one was not merely slow.
      const fresh = alertValue({}, clock.nowMs);
      await second.publish(fresh);
      await waitFor('fresh alert', () => receiverA.received.length === 2 && receiverB.received.length === 2);
      assert.equal(JSON.parse(receiverA.received[1].body).alert_id, fresh.alert_id);
      assert.deepEqual(await stateOf(alertId, 'once-a', clock.nowMs), { result: 'delivered', attempts: 1 });
      assert.deepEqual(await stateOf(alertId, 'once-b', clock.nowMs), { result: 'delivered', attempts: 1 });
    } finally {
      await second.close();
      await receiverA.close();
      await receiverB.close();
    }
  });

  it('resumes a delivery left pending by a stop, from the stored alert', async () => {
    const clock = new FakeClock();
    const receiver = await startReceiver(() => ({ status: 503 }), clock.now);
    const settings = notifierSettings([{ name: 'resume', kind: 'webhook', url: receiver.url }]);
    // The first run's backoff never ends (a sleep that only returns on close), so the stop finds it pending.
    const untilClosed = (_ms: number, signal: AbortSignal) => new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
    const first = await startNotifier(store, settings, { now: clock.now, sleep: untilClosed });
    const alertId = nextAlertId();
    const lastAtNs = BigInt(clock.nowMs - 5_000) * 1_000_000n;
    try {
      await first.publish(alertValue({ alert_id: alertId, last_at_ns: lastAtNs }, clock.nowMs));
      await waitFor('pending after one attempt', async () => (await stateOf(alertId, 'resume', clock.nowMs))?.attempts === 1);
    } finally {
      await first.close();
    }
    assert.deepEqual(await stateOf(alertId, 'resume', clock.nowMs), { result: 'pending', attempts: 1 });
    // The logminer stores every alert before publishing it; the resume reads it from there.
    await store.insert(
      'log_alerts',
      [
        'alert_id',
        'kind',
        'template_id',
        'service',
        'template',
        'started_at_ns',
        'last_at_ns',
        'window_count',
        'peak_count',
        'baseline_per_window',
        'baseline_day',
        'baseline_week',
        'example_trace_ids',
        'published',
        'updated_at_ms',
      ],
      [
        [
          alertId,
          'new',
          '18446744073709551557',
          'checkout',
          'payment <*> declined',
          String(lastAtNs - 1_000n),
          String(lastAtNs),
          0,
          9,
          0,
          null,
          null,
          ['e'.repeat(32)],
          true,
          clock.nowMs,
        ],
      ],
    );
    receiver.respond = ok;
    clock.nowMs += 1_000;
    const second = await startNotifier(store, settings, clock);
    try {
      await waitFor('resumed delivery', async () => (await stateOf(alertId, 'resume', clock.nowMs))?.result === 'delivered');
      assert.deepEqual(await stateOf(alertId, 'resume', clock.nowMs), { result: 'delivered', attempts: 2 });
      assert.equal(receiver.received.length, 2);
      const body = JSON.parse(receiver.received[1].body);
      assert.equal(body.alert_id, alertId);
      assert.equal(body.count, 9);
      assert.deepEqual(body.links, [`http://svc.example:8090/traces/${'e'.repeat(32)}`]);
    } finally {
      await second.close();
      await receiver.close();
    }
  });

  it('honours Retry-After (seconds and HTTP date) before retrying, for 429 and 503', async () => {
    const clock = new FakeClock(Date.UTC(2026, 10, 22, 8, 0, 0));
    const retryAt = new Date(clock.nowMs + 60_000 + 20_000).toUTCString();
    const answers = [{ status: 429, headers: { 'retry-after': '7' } }, { status: 503, headers: { 'retry-after': retryAt } }, { status: 200 }];
    const receiver = await startReceiver((i) => answers[i] ?? { status: 200 }, clock.now);
    const run = await startNotifier(store, notifierSettings([{ name: 'retry-after', kind: 'webhook', url: receiver.url }]), clock);
    try {
      await run.publish(alertValue({ last_at_ns: BigInt(clock.nowMs) * 1_000_000n }, clock.nowMs));
      await waitFor('three requests', () => receiver.received.length === 3);
      const [a, b, c] = receiver.received.map((r) => r.atMs);
      assert.equal(b - a, 7_000, 'waited the 7 s asked for, not the 1 s backoff');
      // The date was 80 s after the first attempt, so 73 s after the second.
      assert.equal(c - b, 73_000);
      await waitFor('delivered', async () => (await metricValue(run.registry, 'svc_notifier_deliveries_total', 'result="delivered"')) === 1);
    } finally {
      await run.close();
      await receiver.close();
    }
  });

  it('does not retry a permanent 4xx or 3xx answer', async () => {
    const clock = new FakeClock();
    const gone = await startReceiver(() => ({ status: 404 }), clock.now);
    const moved = await startReceiver(() => ({ status: 301, headers: { location: 'http://127.0.0.1:9/elsewhere' } }), clock.now);
    const run = await startNotifier(
      store,
      notifierSettings([
        { name: 'gone', kind: 'webhook', url: gone.url },
        { name: 'moved', kind: 'webhook', url: moved.url },
      ]),
      clock,
    );
    try {
      const alert = alertValue({}, clock.nowMs);
      await run.publish(alert);
      await waitFor('both failed', async () => (await metricValue(run.registry, 'svc_notifier_deliveries_total', 'result="failed"')) === 2);
      assert.equal(gone.received.length, 1);
      assert.equal(moved.received.length, 1);
      assert.deepEqual(clock.slept, []);
      assert.deepEqual(await stateOf(alert.alert_id, 'gone', clock.nowMs), { result: 'failed', attempts: 1 });
      assert.deepEqual(await stateOf(alert.alert_id, 'moved', clock.nowMs), { result: 'failed', attempts: 1 });
    } finally {
      await run.close();
      await gone.close();
      await moved.close();
    }
  });

  it('retries 5xx with exponential backoff up to max_attempts, then records failed', async () => {
    const clock = new FakeClock();
    const receiver = await startReceiver(() => ({ status: 502 }), clock.now);
    const run = await startNotifier(store, notifierSettings([{ name: 'flaky', kind: 'webhook', url: receiver.url }], { max_attempts: 4 }), clock);
    try {
      const alert = alertValue({}, clock.nowMs);
      await run.publish(alert);
      await waitFor('failed', async () => (await stateOf(alert.alert_id, 'flaky', clock.nowMs))?.result === 'failed');
      assert.equal(receiver.received.length, 4);
      const gaps = receiver.received.slice(1).map((r, i) => r.atMs - receiver.received[i].atMs);
      assert.deepEqual(gaps, [1_000, 2_000, 4_000]);
      assert.deepEqual(await stateOf(alert.alert_id, 'flaky', clock.nowMs), { result: 'failed', attempts: 4 });
      await waitFor(
        'svc_notifier_deliveries_total{result="failed"} 1',
        async () => (await metricValue(run.registry, 'svc_notifier_deliveries_total', 'result="failed"')) === 1,
      );
    } finally {
      await run.close();
      await receiver.close();
    }
  });

  it('retries a failed write of a delivery result after the injected sleep, and records it', async () => {
    const clock = new FakeClock();
    const receiver = await startReceiver(ok, clock.now);
    // The first write of a final result fails once; the `pending` write before the attempt goes through.
    let failedWrites = 0;
    const flaky: Store = Object.create(store, {
      insert: {
        value: async (table: string, columns: readonly string[], rows: readonly (readonly unknown[])[]) => {
          if (table === 'notifier_deliveries' && rows.some((row) => row[2] === 'delivered') && failedWrites === 0) {
            failedWrites++;
            throw new Error('injected write failure');
          }
          return store.insert(table, columns, rows);
        },
      },
    });
    const run = await startNotifier(flaky, notifierSettings([{ name: 'slow-store', kind: 'webhook', url: receiver.url }]), clock);
    try {
      const alert = alertValue({}, clock.nowMs);
      await run.publish(alert);
      await waitFor('delivered record', async () => (await stateOf(alert.alert_id, 'slow-store', clock.nowMs))?.result === 'delivered');
      assert.equal(failedWrites, 1);
      assert.equal(receiver.received.length, 1);
      // The 500 ms between write tries went through the injected sleep, not a real timer.
      assert.deepEqual(clock.slept, [500]);
    } finally {
      await run.close();
      await receiver.close();
    }
  });

  it('retries a timed-out attempt (timeout_secs) and a refused connection', async () => {
    const clock = new FakeClock();
    const receiver = await startReceiver((i) => (i === 0 ? 'hang' : { status: 204 }), clock.now);
    const closed = await startReceiver(ok, clock.now);
    const closedUrl = closed.url;
    await closed.close();
    const run = await startNotifier(
      store,
      notifierSettings(
        [
          { name: 'slow', kind: 'webhook', url: receiver.url },
          { name: 'refused', kind: 'webhook', url: closedUrl },
        ],
        { timeout_secs: 1, max_attempts: 2 },
      ),
      clock,
    );
    try {
      const alert = alertValue({}, clock.nowMs);
      await run.publish(alert);
      await waitFor('delivered after the timeout', async () => (await stateOf(alert.alert_id, 'slow', clock.nowMs))?.result === 'delivered');
      await waitFor('refused twice', async () => (await stateOf(alert.alert_id, 'refused', clock.nowMs))?.result === 'failed');
      assert.equal(receiver.received.length, 2);
      assert.deepEqual(await stateOf(alert.alert_id, 'slow', clock.nowMs), { result: 'delivered', attempts: 2 });
      assert.deepEqual(await stateOf(alert.alert_id, 'refused', clock.nowMs), { result: 'failed', attempts: 2 });
    } finally {
      await run.close();
      await receiver.close();
    }
  });

  it('skips an alert older than max_age_secs as stale, and delivers a later fresh copy once', async () => {
    const clock = new FakeClock();
    const receiver = await startReceiver(ok, clock.now);
    const run = await startNotifier(store, notifierSettings([{ name: 'stale', kind: 'webhook', url: receiver.url }], { max_age_secs: 600 }), clock);
    try {
      const alertId = nextAlertId();
      await run.publish(alertValue({ alert_id: alertId, last_at_ns: BigInt(clock.nowMs - 601_000) * 1_000_000n }, clock.nowMs));
      await waitFor('stale recorded', async () => (await stateOf(alertId, 'stale', clock.nowMs))?.result === 'stale');
      await run.publish(alertValue({ alert_id: alertId, last_at_ns: BigInt(clock.nowMs - 700_000) * 1_000_000n }, clock.nowMs));
      await waitFor('committed', async () => (await run.bus.offsets(NOTIFIER_GROUP, ALERTS_TOPIC)).every((p) => p.committed === p.end));
      assert.equal(receiver.received.length, 0);
      assert.equal(await metricValue(run.registry, 'svc_notifier_deliveries_total', 'result="stale"'), 1, 'a second stale copy is not counted again');
      // A lasting alert refreshed with a recent last_at is news: delivered once.
      await run.publish(alertValue({ alert_id: alertId, last_at_ns: BigInt(clock.nowMs - 10_000) * 1_000_000n }, clock.nowMs));
      await waitFor('delivered', async () => (await stateOf(alertId, 'stale', clock.nowMs))?.result === 'delivered');
      assert.equal(receiver.received.length, 1);
      assert.deepEqual(await stateOf(alertId, 'stale', clock.nowMs), { result: 'delivered', attempts: 1 });
    } finally {
      await run.close();
      await receiver.close();
    }
  });

  it('delivers only the kinds in notifier.kinds', async () => {
    const clock = new FakeClock();
    const receiver = await startReceiver(ok, clock.now);
    const run = await startNotifier(store, notifierSettings([{ name: 'kinds', kind: 'webhook', url: receiver.url }], { kinds: ['spike', 'silence'] }), clock);
    try {
      const fresh = alertValue({ kind: 'new' }, clock.nowMs);
      const spike = alertValue({ kind: 'spike', window_count: 12 }, clock.nowMs);
      await run.publish(fresh);
      await run.publish(spike);
      await waitFor('spike delivered', () => receiver.received.length === 1);
      await waitFor('committed', async () => (await run.bus.offsets(NOTIFIER_GROUP, ALERTS_TOPIC)).every((p) => p.committed === p.end));
      assert.equal(JSON.parse(receiver.received[0].body).alert_id, spike.alert_id);
      assert.equal(await stateOf(fresh.alert_id, 'kinds', clock.nowMs), undefined);
    } finally {
      await run.close();
      await receiver.close();
    }
  });

  it('posts {"text": "<summary> <links>"} to a chat target', async () => {
    const clock = new FakeClock();
    const receiver = await startReceiver(ok, clock.now);
    const run = await startNotifier(store, notifierSettings([{ name: 'chat', kind: 'chat', url: receiver.url }]), clock);
    try {
      const traces = ['1'.repeat(32), '2'.repeat(32)];
      await run.publish(alertValue({ kind: 'new', service: 'checkout', template: 'payment <*> declined', trace_ids: traces }, clock.nowMs));
      await waitFor('chat message', () => receiver.received.length === 1);
      assert.equal(receiver.received[0].headers['content-type'], 'application/json');
      assert.deepEqual(JSON.parse(receiver.received[0].body), {
        text: `New log template in checkout: "payment <*> declined" http://svc.example:8090/traces/${traces[0]} http://svc.example:8090/traces/${traces[1]}`,
      });
    } finally {
      await run.close();
      await receiver.close();
    }
  });

  it('never puts a target URL in logs, metrics or delivery records', async () => {
    const clock = new FakeClock();
    const secret = 'T0KEN-s3cr3t-path';
    const notFound = await startReceiver(() => ({ status: 404 }), clock.now);
    const down = await startReceiver(ok, clock.now);
    const downUrl = `${down.url}/${secret}-down`;
    await down.close();
    const targets = [
      { name: 'leak-404', kind: 'webhook' as const, url: `${notFound.url}/${secret}-404?token=${secret}` },
      { name: 'leak-down', kind: 'webhook' as const, url: downUrl },
      { name: 'leak-dns', kind: 'chat' as const, url: `http://${secret.toLowerCase()}.invalid/${secret}` },
    ];
    const run = await startNotifier(store, notifierSettings(targets, { max_attempts: 2, timeout_secs: 2 }), clock);
    try {
      const alert = alertValue({}, clock.nowMs);
      await run.publish(alert);
      await waitFor('all failed', async () => (await metricValue(run.registry, 'svc_notifier_deliveries_total', 'result="failed"')) === 3, 20_000);
      const logs = run.logs.text();
      assert.ok(logs.includes('leak-down'), 'the failures were logged by target name');
      const metrics = await run.registry.metrics();
      assert.ok(metrics.includes('target="leak-404"'));
      const rows = await store.query<Record<string, unknown>>('SELECT * FROM notifier_deliveries WHERE alert_id = {id:String}', { id: alert.alert_id });
      // Merges may already have collapsed a pair's versions, so rows are not counted.
      assert.deepEqual(new Set(rows.map((row) => row.target)), new Set(targets.map((t) => t.name)));
      const stored = JSON.stringify(rows);
      for (const text of [logs, metrics, stored]) {
        assert.ok(!text.toLowerCase().includes(secret.toLowerCase()), 'secret path absent');
        for (const target of targets) assert.ok(!text.includes(new URL(target.url).host), 'host absent');
      }
    } finally {
      await run.close();
      await notFound.close();
    }
  });

  it('with no targets logs that delivery is disabled and still commits what it reads', async () => {
    const clock = new FakeClock();
    const run = await startNotifier(store, notifierSettings([]), clock);
    try {
      await run.publish(alertValue({}, clock.nowMs));
      await run.publish(alertValue({}, clock.nowMs));
      await waitFor('committed', async () => (await run.bus.offsets(NOTIFIER_GROUP, ALERTS_TOPIC)).every((p) => p.committed === p.end));
      const disabled = run.logs
        .text()
        .split('\n')
        .filter((line) => line.includes('delivery is disabled'));
      assert.equal(disabled.length, 1);
    } finally {
      await run.close();
    }
  });
});
