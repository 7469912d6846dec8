/**
 * The assembler component on the embedded bus and a real embedded chDB (one store for this
 * file: chDB binds one data directory per process). The clock is injected as real time plus an
 * offset, so a test moves past gap_ms without waiting for it.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Registry } from 'prom-client';
import { openTestBus } from '../testing/test-bus.js';
import type { AssemblerSettings } from '../config/settings.js';
import { DEFAULT_THRESHOLDS } from '../analysis/fixtures.test-support.js';
import { ITEMS_HEADER, KEY_HEADER, SIGNAL_HEADER, type Bus, type BusRecord } from '../model/bus.js';
import type { Component } from '../model/component.js';
import type { LogRow, SpanRow } from '../model/signals.js';
import type { Store } from '../model/store.js';
import { encodeLogsData } from '../otlp/encode-logs.js';
import { encodeTracesData } from '../otlp/encode-traces.js';
import { createStore } from '../store/create-store.js';
import { migrate } from '../store/migrate.js';
import { parseJsonExact } from '../util/json.js';
import { createLogger } from '../util/log.js';
import { createAssembler } from './assembler.js';

const TOPIC = 'svc.signals';
const STORIES_TOPIC = 'svc.stories';
const SETTINGS: AssemblerSettings = {
  gap_ms: 1_000,
  max_age_ms: 60_000,
  max_spans: 10_000,
  max_buffer_bytes: 64 * 1024 * 1024,
  recent_per_partition: 1_000,
  baseline_window_minutes: 60,
  baseline_refresh_secs: 1,
  stories_topic: STORIES_TOPIC,
  stories_partitions: 3,
  metrics_addr: '127.0.0.1:0',
};

const dataDir = mkdtempSync(join(tmpdir(), 'svc-assembler-'));
let store: Store;
let bus: Bus;
let assembler: Component;
const registry = new Registry();
let offsetMs = 0;
const nowMs = () => Date.now() + offsetMs;
const published: BusRecord[] = [];

before(async () => {
  store = await createStore({ clickhouse: { url: '', database: 'svc_assembler_component' }, embedded: { data_dir: dataDir } });
  await migrate(store);
  bus = await openTestBus([
    { name: TOPIC, partitions: 4, retentionMs: -1, maxMessageBytes: 1_000_000 },
    { name: STORIES_TOPIC, partitions: 3, retentionMs: -1, maxMessageBytes: 1_000_000 },
  ]);
  bus.consume({ group: 'test-stories', topics: [STORIES_TOPIC], handler: async (records) => void published.push(...records) });
  assembler = createAssembler(
    { assembler: SETTINGS, thresholds: DEFAULT_THRESHOLDS, topic: TOPIC },
    { bus, store, registry, logger: createLogger('off'), nowMs },
  );
  await assembler.start();
});

after(async () => {
  await bus?.close();
  await store?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Every span starts a few seconds before the test run, with odd nanoseconds. */
const BASE_NS = BigInt(Date.now() - 5_000) * 1_000_000n + 17n;
let traceCounter = 0;
const newTraceId = () => `${(++traceCounter).toString(16).padStart(8, '0')}${'e'.repeat(24)}`;

function span(traceId: string, id: string, over: Partial<SpanRow> & { startMs: number; endMs: number }): SpanRow {
  const { startMs, endMs, ...rest } = over;
  return {
    traceId,
    spanId: id.padStart(16, '0'),
    parentSpanId: '',
    serviceName: 'front',
    name: 'GET /home',
    kind: 'server',
    startNs: BASE_NS + BigInt(startMs) * 1_000_000n,
    endNs: BASE_NS + BigInt(endMs) * 1_000_000n,
    status: 'unset',
    statusMessage: '',
    attrs: [],
    resource: [['service.name', rest.serviceName ?? 'front']],
    events: [],
    scopeName: 'test',
    scopeVersion: '1',
    ...rest,
  };
}

async function sendSpans(spans: SpanRow[]): Promise<void> {
  await bus.publish(TOPIC, [{ key: spans[0].traceId, value: encodeTracesData(spans), headers: { [SIGNAL_HEADER]: 'traces' } }]);
}

async function sendLogs(logs: LogRow[]): Promise<void> {
  await bus.publish(TOPIC, [{ key: logs[0].traceId, value: encodeLogsData(logs), headers: { [SIGNAL_HEADER]: 'logs' } }]);
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function metric(name: string, labels: Record<string, string> = {}): Promise<number> {
  const found = (await registry.getSingleMetric(name)?.get())?.values ?? [];
  return found.filter((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l)).reduce((sum, v) => sum + v.value, 0);
}

/** Moves the injected clock past gap_ms; the scheduler notices on its next tick, which callers wait for. */
function passGap(): void {
  offsetMs += SETTINGS.gap_ms + 1;
}

async function storyRows(traceId: string) {
  return store.query<{ story: string; kind: string; fingerprint: string }>(
    'SELECT story, toString(kind) AS kind, toString(fingerprint) AS fingerprint FROM stories WHERE story_id = {id:String}',
    { id: traceId },
  );
}

describe('assembler', () => {
  const failing = newTraceId();

  test('a failing trace gives a stored story, a trace summary, edges and a story record keyed by fingerprint', async () => {
    await sendSpans([
      span(failing, 'a', { startMs: 0, endMs: 100 }),
      span(failing, 'b', {
        parentSpanId: 'a'.padStart(16, '0'),
        serviceName: 'cart',
        name: 'GET /cart',
        kind: 'server',
        status: 'error',
        statusMessage: 'cart db down 42',
        startMs: 10,
        endMs: 60,
      }),
    ]);
    await sendLogs([
      {
        logId: '77',
        tsNs: BigInt(Date.now() - 4_000) * 1_000_000n,
        observedTsNs: 0n,
        traceId: failing,
        spanId: 'b'.padStart(16, '0'),
        serviceName: 'cart',
        severityNumber: 17,
        severityText: 'ERROR',
        body: 'db down',
        attrs: [],
        resource: [],
        scopeName: '',
        scopeVersion: '',
      },
    ]);
    await until('the trace to be buffered', async () => ((await metric('svc_assembler_open_traces')) === 1 ? true : undefined));
    assert.deepEqual(await storyRows(failing), [], 'nothing before the gap');
    passGap();
    const rows = await until('the story row', async () => ((await storyRows(failing)).length > 0 ? storyRows(failing) : undefined));
    assert.equal(rows[0].kind, 'error');
    const story = parseJsonExact(rows[0].story) as Record<string, unknown>;
    assert.equal(story.story_id, failing);
    assert.equal(story.fingerprint, rows[0].fingerprint);
    assert.deepEqual(story.path_services, ['front', 'cart']);
    assert.equal((story.root_cause as { message: string }).message, 'cart db down 42');
    assert.equal((story.logs as unknown[]).length, 1);

    const summary = await until('the summary row', async () => {
      const found = await store.query<{ story_kind: string; span_count: number; ops: string[] }>(
        'SELECT story_kind, span_count, ops FROM trace_summaries WHERE trace_id = {id:String}',
        { id: failing },
      );
      return found.length > 0 ? found : undefined;
    });
    assert.deepEqual(summary, [{ story_kind: 'error', span_count: 2, ops: ['cart: GET /cart', 'front: GET /home'] }]);

    const record = await until('the story record', async () => published.find((r) => r.value.toString().includes(failing)));
    assert.equal(record.key, rows[0].fingerprint);
    const body = parseJsonExact(record.value.toString()) as { root_cause: { span_id: string; self_ns: unknown }; top_contributors: unknown[] };
    assert.equal(body.root_cause.span_id, 'b'.padStart(16, '0'));
    assert.ok('self_ns' in body.root_cause, 'the record carries the full span');
    assert.ok(Array.isArray(body.top_contributors));
    assert.equal(await metric('svc_assembler_stories_total', { kind: 'error' }), 1);
    assert.equal(await metric('svc_assembler_traces_closed_total', { reason: 'gap' }), 1);
    assert.equal(await metric('svc_assembler_open_traces'), 0);
  });

  test('a span after its trace closed is late: counted, not analysed again', async () => {
    const before = await metric('svc_assembler_late_items_total');
    await sendSpans([span(failing, 'c', { parentSpanId: 'a'.padStart(16, '0'), serviceName: 'extra', status: 'error', startMs: 70, endMs: 80 })]);
    await until('the late count', async () => ((await metric('svc_assembler_late_items_total')) === before + 1 ? true : undefined));
    assert.equal(await metric('svc_assembler_open_traces'), 0);
    // A marker trace opened now closes on the same scheduler pass that would close a trace the late span had reopened.
    const marker = newTraceId();
    await sendSpans([span(marker, 'a', { serviceName: 'marker', name: 'GET /marker', startMs: 0, endMs: 1 })]);
    await until('the marker to be buffered', async () => ((await metric('svc_assembler_open_traces')) === 1 ? true : undefined));
    passGap();
    await until('the marker to close', async () => ((await metric('svc_assembler_open_traces')) === 0 ? true : undefined));
    assert.equal(await metric('svc_assembler_traces_closed_total'), 2, 'the marker closed, and nothing for the late span');
  });

  test('a trace with logs only produces nothing', async () => {
    const closedBefore = await metric('svc_assembler_traces_closed_total');
    const logsOnly = newTraceId();
    await sendLogs([
      {
        logId: '78',
        tsNs: BigInt(Date.now()) * 1_000_000n,
        observedTsNs: 0n,
        traceId: logsOnly,
        spanId: '',
        serviceName: 'x',
        severityNumber: 21,
        severityText: 'FATAL',
        body: 'boom',
        attrs: [],
        resource: [],
        scopeName: '',
        scopeVersion: '',
      },
    ]);
    await until('the trace to be buffered', async () => ((await metric('svc_assembler_open_traces')) === 1 ? true : undefined));
    passGap();
    await until('the trace to close', async () => ((await metric('svc_assembler_open_traces')) === 0 ? true : undefined));
    const rows = await store.query('SELECT trace_id FROM trace_summaries WHERE trace_id = {id:String}', { id: logsOnly });
    assert.deepEqual(rows, []);
    assert.equal(await metric('svc_assembler_traces_closed_total'), closedBefore, 'a logs-only close is not a closed trace');
  });

  test('60 normal traces make a trusted baseline; then a slow one gives a slow story with a baseline diff', async () => {
    for (let i = 0; i < 60; i++) {
      const id = newTraceId();
      await sendSpans([
        span(id, 'a', { name: 'GET /slowish', startMs: 0, endMs: 20 + (i % 5) }),
        span(id, 'b', { parentSpanId: 'a'.padStart(16, '0'), serviceName: 'db', name: 'SELECT', kind: 'client', startMs: 2, endMs: 12 }),
      ]);
    }
    await until('60 open traces', async () => ((await metric('svc_assembler_open_traces')) === 60 ? true : undefined));
    passGap();
    await until('a trusted baseline', async () => ((await metric('svc_assembler_trusted_baselines')) >= 1 ? true : undefined));
    const slow = newTraceId();
    await sendSpans([
      span(slow, 'a', { name: 'GET /slowish', startMs: 0, endMs: 600 }),
      span(slow, 'b', { parentSpanId: 'a'.padStart(16, '0'), serviceName: 'db', name: 'SELECT', kind: 'client', startMs: 2, endMs: 550 }),
      span(slow, 'c', { parentSpanId: 'a'.padStart(16, '0'), serviceName: 'cache', name: 'GET key', kind: 'client', startMs: 560, endMs: 570 }),
    ]);
    await until('the slow trace to be buffered', async () => ((await metric('svc_assembler_open_traces')) === 1 ? true : undefined));
    passGap();
    const rows = await until('the slow story', async () => ((await storyRows(slow)).length > 0 ? storyRows(slow) : undefined));
    assert.equal(rows[0].kind, 'slow');
    const story = parseJsonExact(rows[0].story) as {
      root_cause: { service: string; message: string };
      baseline_diff: { new_ops: string[]; slower_ops: { op: string }[] };
    };
    assert.equal(story.root_cause.service, 'db');
    assert.equal(story.root_cause.message, 'slow');
    assert.deepEqual(story.baseline_diff.new_ops, ['cache: GET key']);
    assert.deepEqual(
      story.baseline_diff.slower_ops.map((o) => o.op),
      ['front: GET /slowish', 'db: SELECT'],
      'largest excess first',
    );
  });

  test('a record that does not decode is skipped and counted as bad_record, on arrival or when its buffered trace closes', async () => {
    const badRecords = () => metric('svc_assembler_dropped_items_total', { reason: 'bad_record' });
    const before = await badRecords();
    /** A length-delimited field claiming more bytes than follow. */
    const garbage = Buffer.from([0x0a, 0x05, 0x01]);
    // Without ingest's headers a record is decoded on arrival.
    await bus.publish(TOPIC, [{ key: newTraceId(), value: garbage, headers: { [SIGNAL_HEADER]: 'traces' } }]);
    await until('the bad record counted on arrival', async () => ((await badRecords()) === before + 1 ? true : undefined));
    // With them a record is buffered still encoded, and decoded when its trace closes.
    const chunked = newTraceId();
    const chunkHeaders = (signal: string) => ({ [SIGNAL_HEADER]: signal, [KEY_HEADER]: 'trace', [ITEMS_HEADER]: '1' });
    await bus.publish(TOPIC, [
      {
        key: chunked,
        value: encodeTracesData([span(chunked, 'a', { status: 'error', statusMessage: 'chunked', startMs: 0, endMs: 5 })]),
        headers: chunkHeaders('traces'),
      },
      { key: chunked, value: garbage, headers: chunkHeaders('logs') },
    ]);
    await until('the chunked trace to be buffered', async () => ((await metric('svc_assembler_open_traces')) === 1 ? true : undefined));
    assert.equal(await badRecords(), before + 1, 'a buffered chunk is not decoded before its trace closes');
    passGap();
    await until("the chunked trace's story", async () => ((await storyRows(chunked)).length > 0 ? true : undefined));
    assert.equal(await badRecords(), before + 2);
  });

  test('close() analyses the traces still open and writes them', async () => {
    const open = newTraceId();
    await sendSpans([span(open, 'a', { status: 'error', statusMessage: 'at shutdown', startMs: 0, endMs: 5 })]);
    await until('the trace to be buffered', async () => ((await metric('svc_assembler_open_traces')) === 1 ? true : undefined));
    await assembler.close();
    assert.equal((await storyRows(open)).length, 1);
    assert.equal(await metric('svc_assembler_traces_closed_total', { reason: 'shutdown' }), 1);
  });
});
