/**
 * The logminer over real chDB (one temp data directory for this file) and the embedded bus:
 * mining and storing, commits after storing, `new` alerts stored and published, restart with
 * restored template ids, a masking change starting an epoch, republish and `svc remine`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { openTestBus } from '../testing/test-bus.js';
import type { LogminerSettings } from '../config/settings.js';
import { alertId } from '../mining/alert-id.js';
import type { LogAlert as MinedAlert } from '../mining/alert-types.js';
import { MASKING_VERSION, maskLine } from '../mining/masking.js';
import { DEFAULT_MINER_OPTIONS } from '../mining/miner.js';
import { SIGNAL_HEADER, type Bus, type BusMessage, type BusRecord } from '../model/bus.js';
import type { LogRow } from '../model/signals.js';
import type { Store } from '../model/store.js';
import { encodeLogsData } from '../otlp/encode-logs.js';
import { logIdOf } from '../otlp/log-id.js';
import { createStore } from '../store/create-store.js';
import { insertAlertVersions } from '../store/log-alerts.js';
import { readLogminerState } from '../store/logminer-state.js';
import { insertLogs } from '../testing/store-rows.js';
import { insertMinuteCounts } from '../store/template-minutes.js';
import { migrate } from '../store/migrate.js';
import { readAllTemplates } from '../store/templates.js';
import { parseJsonExact } from '../util/json.js';
import { createLogger } from '../util/log.js';
import { AlertOutput } from './alert-output.js';
import { createLogminer, type Logminer } from './logminer.js';
import { createMiningEngine } from './mining-engine.js';
import { remineStoredLogs } from './remine-stored.js';

const LOGS_TOPIC = 'svc.logs';
const ALERTS_TOPIC = 'svc.alerts';
const MINUTE_MS = 60_000;
const NOW_MS = Date.now();

const SETTINGS: LogminerSettings = {
  sim_threshold: 0.5,
  max_clusters_per_service: 5000,
  keep_http_status: true,
  fingerprinter: 'scalar',
  max_batch: 5000,
  flush_ms: 50,
  detect_secs: 3600, // passes run through detectNow() only
  spike_window_min: 5,
  baseline_window_min: 60,
  spike_factor: 5,
  spike_min_count: 10,
  baseline_mode: 'flat',
  new_template_warmup_min: 15,
  alert_active_min: 10,
  ownership_window_min: 60,
  alerts_topic: ALERTS_TOPIC,
  metrics_addr: '127.0.0.1:0',
};

const dir = mkdtempSync(join(tmpdir(), 'svc-logminer-test-'));
let store: Store;
before(async () => {
  store = await createStore({ clickhouse: { url: '', database: 'svc_logminer' }, embedded: { data_dir: join(dir, 'data') } });
  await migrate(store);
});
after(async () => {
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

let logSeq = 0;
function log(service: string, body: string, tsMs: number, over: Partial<LogRow> = {}): LogRow {
  const row: LogRow = {
    logId: '',
    tsNs: BigInt(Math.floor(tsMs)) * 1_000_000n + BigInt(logSeq++ % 1000),
    observedTsNs: 0n,
    traceId: '',
    spanId: '',
    serviceName: service,
    severityNumber: 9,
    severityText: 'INFO',
    body,
    attrs: [],
    resource: [],
    scopeName: '',
    scopeVersion: '',
    ...over,
  };
  row.logId = logIdOf(row);
  return row;
}

interface Harness {
  bus: Bus;
  miner: Logminer;
  registry: Registry;
  alerts: BusRecord[];
  send(logs: LogRow[]): Promise<void>;
  close(): Promise<void>;
}

/** A logminer on a fresh embedded bus, with a consumer collecting the alerts topic. */
async function open(settings: Partial<LogminerSettings> = {}): Promise<Harness> {
  const bus = await openTestBus([
    { name: LOGS_TOPIC, partitions: 4, retentionMs: -1, maxMessageBytes: 1_000_000 },
    { name: ALERTS_TOPIC, partitions: 3, retentionMs: -1, maxMessageBytes: 1_000_000 },
  ]);
  const registry = new Registry();
  const miner = createLogminer({ logminer: { ...SETTINGS, ...settings }, logsTopic: LOGS_TOPIC }, { bus, store, registry, logger: createLogger('silent') });
  await miner.start();
  const alerts: BusRecord[] = [];
  const alertConsumer = bus.consume({ group: 'test-alerts', topics: [ALERTS_TOPIC], handler: async (records) => void alerts.push(...records) });
  return {
    bus,
    miner,
    registry,
    alerts,
    async send(logs) {
      const byService = new Map<string, LogRow[]>();
      for (const l of logs) byService.set(l.serviceName, [...(byService.get(l.serviceName) ?? []), l]);
      const messages: BusMessage[] = [...byService].map(([service, rows]) => ({
        key: service,
        value: encodeLogsData(rows),
        headers: { [SIGNAL_HEADER]: 'logs' },
      }));
      await bus.publish(LOGS_TOPIC, messages);
      // Committed means stored: the logminer resolves a batch only after its rows are written.
      for (let i = 0; i < 500; i++) {
        const offsets = await bus.offsets('svc-logminer', LOGS_TOPIC);
        if (offsets.every((p) => p.committed >= p.end)) return;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      throw new Error('logs not committed');
    },
    async close() {
      await miner.close();
      await alertConsumer.close();
      await bus.close();
    },
  };
}

async function count(sql: string, params: Record<string, string | number | bigint> = {}): Promise<number> {
  const rows = await store.query<{ n: string }>(sql, params);
  return Number(rows[0].n);
}

async function metric(registry: Registry, name: string): Promise<number> {
  const m = await registry.getSingleMetric(name)?.get();
  return m?.values.reduce((sum, v) => sum + v.value, 0) ?? 0;
}

describe('logminer', () => {
  it('mines each service into templates, stores hits and minute counts, and commits only after storing', async () => {
    const h = await open();
    try {
      const logs = [];
      for (let i = 0; i < 30; i++)
        logs.push(
          log('checkout', `payment ${1000 + i} accepted for user ${i}`, NOW_MS - 40 * MINUTE_MS + i * 1000, { traceId: i % 2 === 0 ? 'ab'.repeat(16) : '' }),
        );
      logs.push(log('billing', 'invoice 42 sent', NOW_MS - 40 * MINUTE_MS));
      await h.send(logs);
      const templates = await readAllTemplates(store, NOW_MS);
      const checkout = templates.filter((t) => t.service === 'checkout');
      assert.equal(checkout.length, 1);
      assert.equal(checkout[0].template, 'payment <*> accepted for user <*>');
      assert.equal(checkout[0].count, 30);
      assert.equal(checkout[0].firstSeenNs, logs[0].tsNs);
      assert.equal(checkout[0].lastSeenNs, logs[29].tsNs);
      assert.equal(checkout[0].signature, 'payment <*> accepted for user <*>');
      assert.equal(checkout[0].maskingVersion, MASKING_VERSION);
      assert.equal(await count('SELECT count() AS n FROM template_hits WHERE service = {s:String}', { s: 'checkout' }), 30);
      assert.equal(await count("SELECT count() AS n FROM template_hits WHERE service = 'checkout' AND trace_id != ''"), 15);
      assert.equal(await count("SELECT sum(hits) AS n FROM template_minutes WHERE service = 'checkout'"), 30);
      assert.equal(await metric(h.registry, 'svc_logminer_logs_mined_total'), 31);
      assert.equal(await metric(h.registry, 'svc_logminer_templates'), 2);
      const lag = await metric(h.registry, 'svc_logminer_data_lag_seconds');
      assert.ok(lag >= 39 * 60 && lag < 45 * 60, `lag ${lag}`);
    } finally {
      await h.close();
    }
  });

  it('raises a new alert for a template first seen after the warm-up, stores it and publishes it keyed by alert id', async () => {
    const h = await open();
    try {
      await h.send([log('checkout', 'payment 77 accepted for user 3', NOW_MS - 2 * MINUTE_MS)]);
      await h.miner.detectNow();
      const fresh = log('checkout', 'card declined by issuer', NOW_MS - MINUTE_MS, { traceId: 'cd'.repeat(16), spanId: '12'.repeat(8) });
      await h.send([fresh]);
      await h.miner.detectNow();
      const rows = await store.query<{ alert_id: string; kind: string; published: boolean; ids: string[] }>(
        "SELECT alert_id, toString(kind) AS kind, published, example_trace_ids AS ids FROM log_alerts WHERE service = 'checkout' ORDER BY updated_at_ms",
      );
      assert.deepEqual(
        rows.map((r) => [r.kind, r.published]),
        [
          ['new', false],
          ['new', true],
        ],
      );
      assert.deepEqual(rows[1].ids, ['cd'.repeat(16)]);
      for (const deadlineMs = Date.now() + 10_000; h.alerts.length === 0 && Date.now() < deadlineMs;) await new Promise((resolve) => setTimeout(resolve, 10));
      assert.equal(h.alerts.length, 1);
      assert.equal(h.alerts[0].key, rows[0].alert_id);
      const body = parseJsonExact(h.alerts[0].value.toString()) as Record<string, unknown>;
      const minute = Math.floor(Number(fresh.tsNs / 1_000_000n) / MINUTE_MS);
      assert.equal(body.alert_id, alertId('new', String(body.template_id), minute));
      assert.deepEqual(Object.keys(body), [
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
        'active',
        'example_traces',
      ]);
      assert.equal(body.kind, 'new');
      assert.equal(body.template, 'card declined by issuer');
      assert.equal(body.active, true);
      assert.deepEqual(body.example_traces, [{ trace_id: 'cd'.repeat(16), story_id: null }]);
      // The next pass has nothing new: the unchanged alert is not written or sent again.
      await h.miner.detectNow();
      assert.equal(await count("SELECT count() AS n FROM log_alerts WHERE service = 'checkout'"), 2);
    } finally {
      await h.close();
    }
  });

  it('restores templates on restart: the same lines keep their template ids and counts go on', async () => {
    const before = (await readAllTemplates(store, NOW_MS)).find((t) => t.service === 'checkout' && t.template.startsWith('payment'));
    assert.ok(before);
    const h = await open();
    try {
      await h.send([log('checkout', 'payment 5 accepted for user 9', NOW_MS - MINUTE_MS)]);
      const afterRestart = (await readAllTemplates(store, NOW_MS)).filter((t) => t.service === 'checkout' && t.template.startsWith('payment'));
      assert.equal(afterRestart.length, 1);
      assert.equal(afterRestart[0].templateId, before.templateId);
      assert.equal(afterRestart[0].count, before.count + 1);
      assert.equal(afterRestart[0].createdSeq, before.createdSeq);
    } finally {
      await h.close();
    }
  });

  it('restores a template showing a word with a digit: same id, same text, and the word still checked', async () => {
    const sshd = async (): Promise<{ templateId: string; template: string }[]> =>
      (await readAllTemplates(store, NOW_MS)).filter((t) => t.service === 'sshd').map((t) => ({ templateId: t.templateId, template: t.template }));
    const first = await open();
    try {
      await first.send([1, 2, 3].map((i) => log('sshd', `Accepted publickey for root from 10.0.0.${i} port ${40000 + i} ssh2`, NOW_MS - MINUTE_MS)));
    } finally {
      await first.close();
    }
    const stored = await sshd();
    assert.deepEqual(
      stored.map((t) => t.template),
      ['Accepted publickey for root from <*> port <*> ssh2'],
    );
    const h = await open();
    try {
      await h.send([log('sshd', 'Accepted publickey for root from 10.0.0.4 port 40004 ssh2', NOW_MS - MINUTE_MS)]);
      assert.deepEqual(await sshd(), stored);
      await h.send([log('sshd', 'Accepted publickey for root from 10.0.0.5 port 40005 ssh1', NOW_MS - MINUTE_MS)]);
      assert.deepEqual(await sshd(), [{ templateId: stored[0]!.templateId, template: 'Accepted publickey for root from <*> port <*>' }]);
    } finally {
      await h.close();
    }
  });

  it('mines and restores the same way with the parallel fingerprinter', async () => {
    const known = (await readAllTemplates(store, NOW_MS)).find((t) => t.service === 'checkout' && t.template.startsWith('payment'));
    assert.ok(known);
    const h = await open({ fingerprinter: 'parallel' });
    try {
      await h.send([
        log('checkout', 'payment 6 accepted for user 10', NOW_MS - MINUTE_MS),
        log('parallel-svc', 'shard 1 ready', NOW_MS),
        log('parallel-svc', 'shard 2 ready', NOW_MS),
      ]);
      const rows = await readAllTemplates(store, NOW_MS);
      const payment = rows.filter((t) => t.service === 'checkout' && t.template.startsWith('payment'));
      assert.deepEqual(
        payment.map((t) => [t.templateId, t.count]),
        [[known.templateId, known.count + 1]],
      );
      const shard = rows.filter((t) => t.service === 'parallel-svc');
      assert.deepEqual(
        shard.map((t) => [t.template, t.count, t.signature]),
        [['shard <*> ready', 2, 'shard <*> ready']],
      );
    } finally {
      await h.close();
    }
  });

  it('starts a masking epoch when keep_http_status changes: no new alerts during its first 15 minutes, everything else carries on', async () => {
    const templatesBefore = await readAllTemplates(store, NOW_MS);
    const payment = templatesBefore.find((t) => t.service === 'checkout' && t.template.startsWith('payment'));
    assert.ok(payment);
    const h = await open({ keep_http_status: false });
    try {
      const state = await readLogminerState(store);
      assert.equal(state?.keepHttpStatus, false);
      assert.ok(state !== null && Math.abs(state.epochStartMs - Date.now()) < 60_000);
      // The templates, their counts and first-seen times carry on into the epoch.
      assert.equal(await metric(h.registry, 'svc_logminer_templates'), templatesBefore.length);
      await h.send([log('checkout', 'payment 8 accepted for user 11', NOW_MS - MINUTE_MS)]);
      const carried = (await readAllTemplates(store, NOW_MS)).filter((t) => t.service === 'checkout' && t.template.startsWith('payment'));
      assert.deepEqual(
        carried.map((t) => [t.templateId, t.count, t.firstSeenNs, t.createdSeq]),
        [[payment.templateId, payment.count + 1, payment.firstSeenNs, payment.createdSeq]],
      );
      // The service is warmed up (a template from 10 minutes ago), then a brand-new line.
      await h.send([log('epoch-svc', 'worker started', NOW_MS - 20 * MINUTE_MS), log('epoch-svc', 'cache rebuilt', NOW_MS)]);
      await h.miner.detectNow();
      assert.equal(await count("SELECT count() AS n FROM log_alerts WHERE service = 'epoch-svc'"), 0);
    } finally {
      await h.close();
    }
    // Restarted with the same setting inside the epoch: still quiet, the epoch start is kept.
    const epochMs = (await readLogminerState(store))?.epochStartMs;
    const again = await open({ keep_http_status: false });
    try {
      assert.equal((await readLogminerState(store))?.epochStartMs, epochMs);
      // Templates carried into the epoch stay restored on the next start, also those not hit since.
      assert.equal(await metric(again.registry, 'svc_logminer_templates'), templatesBefore.length + 2);
      await again.send([log('epoch-svc', 'shard 3 moved', NOW_MS + 1000)]);
      await again.miner.detectNow();
      assert.equal(await count("SELECT count() AS n FROM log_alerts WHERE service = 'epoch-svc'"), 0);
    } finally {
      await again.close();
    }
  });

  it("drops undecodable records, logs older than 3 days and logs past the store's range, counting them", async () => {
    const h = await open({ keep_http_status: false });
    try {
      await h.bus.publish(LOGS_TOPIC, [{ key: 'x', value: Buffer.from([0xff, 0xff, 0xff]), headers: { [SIGNAL_HEADER]: 'logs' } }]);
      await h.send([log('old-svc', 'ancient line', NOW_MS - 4 * 24 * 60 * MINUTE_MS)]);
      // Past the store's Int64 nanoseconds (2262): a hit could never be read back.
      const farTsNs = 2n ** 64n - 1n;
      await h.send([log('old-svc', 'line from the far future', NOW_MS, { tsNs: farTsNs, observedTsNs: farTsNs })]);
      const dropped = await h.registry.getSingleMetric('svc_logminer_dropped_items_total')?.get();
      const byReason = Object.fromEntries((dropped?.values ?? []).map((v) => [v.labels.reason, v.value]));
      assert.deepEqual(byReason, { bad_record: 1, too_old: 1, time_out_of_range: 1 });
      assert.equal(await count("SELECT count() AS n FROM template_hits WHERE service = 'old-svc'"), 0);
    } finally {
      await h.close();
    }
  });
});

describe('seasonal spikes', () => {
  it('compares the window with the same window a day earlier, read from the stored minute counts', async () => {
    const h = await open({ baseline_mode: 'seasonal', keep_http_status: false });
    try {
      const now = Date.now();
      const minuteStart = Math.floor(now / MINUTE_MS) * MINUTE_MS;
      const lines = (service: string): LogRow[] => {
        const rows: LogRow[] = [];
        // A heartbeat in each of the last 70 minutes covers the window and its baseline hour.
        for (let m = 70; m >= 1; m--) rows.push(log(service, 'heartbeat ok', minuteStart - m * MINUTE_MS + 5000));
        rows.push(log(service, 'queue 1 backlog grew', minuteStart - 50 * MINUTE_MS));
        for (let i = 0; i < 20; i++) rows.push(log(service, `queue ${i + 2} backlog grew`, minuteStart - (1 + (i % 3)) * MINUTE_MS + 10_000 + i));
        return rows.sort((a, b) => (a.tsNs < b.tsNs ? -1 : 1));
      };
      await h.send([...lines('seasonal-a'), ...lines('seasonal-b')]);
      // seasonal-a logged far more in the same minutes a day ago: today's burst is its normal.
      const [usual] = (await readAllTemplates(store, now)).filter((t) => t.service === 'seasonal-a' && t.template.startsWith('queue'));
      const wallMinute = Math.floor(now / MINUTE_MS);
      const dayAgo = [];
      for (let m = wallMinute - 8; m <= wallMinute + 1; m++) dayAgo.push({ service: 'seasonal-a', templateId: usual.templateId, minute: m - 1440, hits: 40 });
      await insertMinuteCounts(store, dayAgo);
      await h.miner.detectNow();
      const spikes = await store.query<{ service: string; day: number | null; week: number | null; n: string }>(
        "SELECT service, baseline_day AS day, baseline_week AS week, window_count AS n FROM log_alerts WHERE kind = 'spike' AND service LIKE 'seasonal-%' AND published",
      );
      assert.deepEqual(
        spikes.map((r) => [r.service, r.day, r.week]),
        [['seasonal-b', 0, 0]],
      );
      assert.equal(Number(spikes[0].n), 20);
    } finally {
      await h.close();
    }
  });
});

describe('alert republish', () => {
  function alert(n: number, startedMs: number): MinedAlert {
    return {
      alert_id: n.toString(16).padStart(16, '0'),
      kind: 'new',
      template_id: String(9000 + n),
      service: 'republish',
      template: `t ${n}`,
      started_at_ns: BigInt(startedMs) * 1_000_000n,
      last_at_ns: BigInt(startedMs) * 1_000_000n,
      window_count: 0,
      peak_count: 1,
      baseline_per_window: 0,
      example_traces: [],
    };
  }

  it('sends stored-but-unpublished alerts of the last 24 h oldest first and stops at the first failed send', async () => {
    const bus = await openTestBus([{ name: ALERTS_TOPIC, partitions: 3, retentionMs: -1, maxMessageBytes: 1_000_000 }]);
    const sent: string[] = [];
    let failAfter = 2;
    const failing = Object.assign(Object.create(bus) as Bus, {
      async publish(topic: string, messages: BusMessage[]) {
        if (failAfter-- <= 0) throw new Error('broker down');
        sent.push(...messages.map((m) => m.key));
        return bus.publish(topic, messages);
      },
    });
    const failures: unknown[] = [];
    const output = new AlertOutput({
      store,
      bus: failing,
      alertsTopic: ALERTS_TOPIC,
      activeWindowMs: 10 * MINUTE_MS,
      nowMs: Date.now,
      onPublished: () => undefined,
      onPublishFailure: (e) => failures.push(e),
    });
    const now = Date.now();
    await insertAlertVersions(store, [
      { alert: alert(3, now - 3 * MINUTE_MS), published: false, updatedAtMs: 1 },
      { alert: alert(1, now - 30 * MINUTE_MS), published: false, updatedAtMs: 1 },
      { alert: alert(2, now - 20 * MINUTE_MS), published: false, updatedAtMs: 1 },
      { alert: alert(4, now - 25 * 60 * MINUTE_MS), published: false, updatedAtMs: 1 }, // older than 24 h
      { alert: alert(5, now - 10 * MINUTE_MS), published: true, updatedAtMs: 1 },
    ]);
    assert.equal(await output.republish(), 2);
    assert.deepEqual(sent, [alert(1, 0).alert_id, alert(2, 0).alert_id]);
    assert.equal(failures.length, 1);
    // The two sent are marked published; the next pass sends the third only.
    failAfter = 10;
    assert.equal(await output.republish(), 1);
    assert.deepEqual(sent.slice(2), [alert(3, 0).alert_id]);
    assert.equal(await output.republish(), 0);
    await bus.close();
  });
});

describe('parallel fingerprinter', () => {
  it('restores stored templates into the workers: a known line keeps its id', async () => {
    const scalar = createMiningEngine({ ...SETTINGS, fingerprinter: 'scalar' });
    const line = 'connected to db-7 in 12 ms';
    const [first] = await scalar.mine([{ service: 'p', line, timeMs: 1, severity: 9 }]);
    const tokens = maskLine(line, { keepHttpStatus: true }).tokens;
    const parallel = createMiningEngine({ ...SETTINGS, fingerprinter: 'parallel' });
    try {
      await parallel.restore({
        maskingVersion: MASKING_VERSION,
        keepHttpStatus: true,
        templates: [
          {
            templateId: first.templateId,
            service: 'p',
            signature: tokens.join(' '),
            tokens,
            count: 1,
            firstSeenMs: 1,
            lastSeenMs: 1,
            maxSeverity: 9,
            sample: 'x',
            overflow: false,
          },
        ],
      });
      const [again] = await parallel.mine([{ service: 'p', line: 'connected to db-9 in 3 ms', timeMs: 2, severity: 9 }]);
      assert.equal(again.templateId, first.templateId);
    } finally {
      await parallel.close();
    }
  });
});

describe('svc remine', () => {
  it('re-mines the stored logs under the current masking, rewrites hits and templates, and starts an epoch', async () => {
    const rows = [
      log('remine-svc', 'GET /a HTTP/1.1 200 in 5 ms', NOW_MS - 50 * MINUTE_MS),
      log('remine-svc', 'GET /a HTTP/1.1 200 in 7 ms', NOW_MS - 49 * MINUTE_MS),
      log('remine-svc', 'GET /a HTTP/1.1 500 in 9 ms', NOW_MS - 48 * MINUTE_MS),
    ];
    await insertLogs(store, rows);
    await insertLogs(store, [rows[0]]); // a replayed copy counts once
    const before = await count('SELECT count() AS n FROM logs');
    const summary = await remineStoredLogs(store, { ...DEFAULT_MINER_OPTIONS, keepHttpStatus: true }, Date.now());
    assert.equal(summary.logs, before - 1);
    const templates = (await readAllTemplates(store, Date.now())).filter((t) => t.service === 'remine-svc').map((t) => [t.template, t.count]);
    // Kept status codes never match a wildcard: 200 and 500 stay apart.
    assert.deepEqual(templates, [
      ['GET /a <*> 200 in <*> ms', 2],
      ['GET /a <*> 500 in <*> ms', 1],
    ]);
    assert.equal(await count('SELECT count() AS n FROM template_hits'), before - 1);
    assert.equal(await count("SELECT sum(hits) AS n FROM template_minutes WHERE service = 'remine-svc'"), 3);
    const state = await readLogminerState(store);
    assert.deepEqual(state, { maskingVersion: MASKING_VERSION, keepHttpStatus: true, epochStartMs: summary.epochStartMs });
  });

  it('hands its templates to the next logminer start, which stays in the epoch: known ids kept, no new alerts', async () => {
    const remined = (await readAllTemplates(store, Date.now())).filter((t) => t.service === 'remine-svc');
    const h = await open({ keep_http_status: true });
    try {
      await h.send([log('remine-svc', 'GET /a HTTP/1.1 200 in 11 ms', NOW_MS - 40 * MINUTE_MS), log('remine-svc', 'POST /b HTTP/1.1 201 in 3 ms', NOW_MS)]);
      await h.miner.detectNow();
      const after = (await readAllTemplates(store, Date.now())).filter((t) => t.service === 'remine-svc');
      const ok = after.find((t) => t.template === 'GET /a <*> 200 in <*> ms');
      assert.equal(ok?.templateId, remined.find((t) => t.template === 'GET /a <*> 200 in <*> ms')?.templateId);
      assert.equal(ok?.count, 3);
      assert.equal(after.length, 3);
      assert.equal(await count("SELECT count() AS n FROM log_alerts WHERE service = 'remine-svc'"), 0);
    } finally {
      await h.close();
    }
  });
});
