/**
 * Interoperability with the OpenTelemetry Collector's kafka exporter (otlp_proto encoding): a
 * collector built by scripts/otelcol/fetch.sh receives OTLP from the real SDK exporters and
 * publishes to a real Kafka broker's svc.signals and svc.logs; `svc writer`, `svc assembler` and
 * `svc logminer` (started by the same code as the commands, as in kafka-split.e2e.test.ts) must
 * store, analyse and mine it. svc's own ingest publishes a like trace beside it, and every record
 * on the two topics is captured, so the run can say exactly what differs (keys, headers,
 * partitions). Run by scripts/otelcol/interop.sh (not part of `npm test`: the collector build takes
 * minutes); the binary comes from SVC_OTELCOL_BIN, the findings go to SVC_INTEROP_REPORT (JSON).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpanKind } from '@opentelemetry/api';
import type { ClickHouseClientConfigOptions } from '@clickhouse/client';
import { createChdbConnection } from 'chdb/connection';
import { Registry } from 'prom-client';
import { createKafkaBus, type KafkaBus } from '../bus/kafka/kafka-bus.js';
import { startSplitComponent, type SplitComponent, type StartedComponent } from '../cli/split.js';
import { loadSettings } from '../config/load.js';
import type { BusConsumer, BusRecord } from '../model/bus.js';
import type { Store } from '../model/store.js';
import { collectorKafkaConfig } from '../docs/collector-config.test-support.js';
import { decodeLogs } from '../otlp/decode-logs.js';
import { decodeTraces } from '../otlp/decode-traces.js';
import { HttpStore } from '../store/http-store.js';
import { migrate } from '../store/migrate.js';
import { getJson, metricValue } from '../testing/http.js';
import { startKafka, type TestKafka } from '../testing/kafka.js';
import {
  buildSampleLogs,
  buildSampleTrace,
  expectedApiLog,
  expectedApiSpan,
  exportLogs,
  exportSpans,
  logExporter,
  traceExporter,
  type Endpoints,
} from '../testing/otel.js';
import { SdkTraces, sendSpans, until } from '../testing/sdk-trace.js';
import { createLogger } from '../util/log.js';
import { partitionForKey } from '../util/murmur2.js';

const COLLECTOR_BIN = process.env.SVC_OTELCOL_BIN ?? '';
const REPORT_FILE = process.env.SVC_INTEROP_REPORT ?? '';
const SIGNALS = 'svc.signals';
const LOGS = 'svc.logs';
const PARTITIONS = 12;

let kafka: TestKafka;
let store: Store;
let captureBus: KafkaBus;
let capture: BusConsumer;
let collector: ChildProcess | undefined;
let collectorOutput = '';
let collectorPorts: Endpoints;
const captured: BusRecord[] = [];
const dir = mkdtempSync(join(tmpdir(), 'svc-otelcol-interop-'));
const started = new Map<SplitComponent, StartedComponent>();
const logger = createLogger('error');
const findings: Record<string, unknown> = {};

function shared(target: Store): Store {
  return {
    query: (sql, params, options) => target.query(sql, params, options),
    exec: (sql, params) => target.exec(sql, params),
    insert: (table, columns, rows) => target.insert(table, columns, rows),
    insertRaw: (table, columns, rows) => target.insertRaw(table, columns, rows),
    database: target.database,
    close: async () => {},
  };
}

async function startComponent(component: SplitComponent): Promise<void> {
  const settings = loadSettings(component, {
    SVC__KAFKA__BROKERS: kafka.brokers,
    SVC__CLICKHOUSE__URL: 'http://in-process.invalid',
    SVC__HTTP_ADDR: '127.0.0.1:0',
    SVC__GRPC_ADDR: '127.0.0.1:0',
    SVC__WRITER__METRICS_ADDR: '127.0.0.1:0',
    SVC__ASSEMBLER__METRICS_ADDR: '127.0.0.1:0',
    SVC__LOGMINER__METRICS_ADDR: '127.0.0.1:0',
    SVC__WRITER__MAX_AGE_MS: '200',
    SVC__ASSEMBLER__GAP_MS: '300',
    SVC__LOGMINER__FLUSH_MS: '100',
  });
  const bus = createKafkaBus({ brokers: kafka.brokers, clientId: `svc-${component}`, maxRecordBytes: settings.kafka.max_record_bytes }, { logger });
  started.set(component, await startSplitComponent(component, settings, { bus, registry: new Registry(), logger, openStore: async () => shared(store) }));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * The collector as docs/collector-kafka.md configures it, word for word but for the broker and the
 * receiver's addresses: traces and logs to svc.signals keyed by trace id, logs also to svc.logs;
 * svc's `svc-signal` header set statically (record_headers), because one topic carries both
 * signals; Kafka's own murmur2 partitioner, as svc's producers use. The collector's own telemetry
 * is off (its metrics port would clash with other runs on the machine).
 */
function collectorConfig(brokers: string, ports: Endpoints): string {
  const documented = collectorKafkaConfig(brokers, `127.0.0.1:${ports.grpcPort}`, `127.0.0.1:${ports.otlpHttpPort}`);
  assert.ok(documented.includes('\nservice:\n'), 'the documented configuration has a service section');
  return documented.replace('\nservice:\n', '\nservice:\n  telemetry:\n    metrics:\n      level: none\n    logs:\n      level: info\n');
}

before(async () => {
  assert.ok(COLLECTOR_BIN !== '', 'SVC_OTELCOL_BIN names the collector binary (scripts/otelcol/interop.sh sets it)');
  kafka = await startKafka();
  store = await HttpStore.open(
    'http://in-process.invalid',
    'svc',
    () => createChdbConnection({ path: join(dir, 'chdb') }) as unknown as ClickHouseClientConfigOptions['connection'],
  );
  await migrate(store);
  // The consumers create the topics (12 partitions each) before the collector publishes.
  for (const component of ['writer', 'assembler', 'logminer', 'ingest', 'api'] as const) await startComponent(component);
  captureBus = createKafkaBus({ brokers: kafka.brokers, clientId: 'interop-capture', maxRecordBytes: 1_000_000 }, { logger });
  capture = captureBus.consume({ group: 'interop-capture', topics: [SIGNALS, LOGS], handler: async (records) => void captured.push(...records) });

  collectorPorts = { grpcPort: await freePort(), otlpHttpPort: await freePort() };
  const configFile = join(dir, 'collector.yaml');
  writeFileSync(configFile, collectorConfig(kafka.brokers, collectorPorts));
  collector = spawn(COLLECTOR_BIN, ['--config', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  const onOutput = (chunk: Buffer) => void (collectorOutput = (collectorOutput + chunk.toString()).slice(-20_000));
  collector.stdout!.on('data', onOutput);
  collector.stderr!.on('data', onOutput);
  await until('the collector is ready', async () => {
    if (collector!.exitCode !== null) throw new Error(`the collector exited:\n${collectorOutput}`);
    return collectorOutput.includes('Everything is ready') ? true : undefined;
  });
});

after(async () => {
  if (collector !== undefined && collector.exitCode === null) {
    const exited = new Promise((resolve) => collector!.once('exit', resolve));
    collector.kill('SIGTERM');
    await exited;
  }
  await capture?.close();
  await captureBus?.close();
  for (const component of ['ingest', 'assembler', 'logminer', 'writer', 'api'] as const) await started.get(component)?.close();
  await store?.close();
  await kafka?.stop();
  rmSync(dir, { recursive: true, force: true });
  if (REPORT_FILE !== '') writeFileSync(REPORT_FILE, `${JSON.stringify(findings, null, 2)}\n`);
});

const apiUrl = () => `http://127.0.0.1:${started.get('api')!.ready.api}`;
const ingestPorts = (): Endpoints => ({ grpcPort: started.get('ingest')!.ready.grpc, otlpHttpPort: started.get('ingest')!.ready.http });

/** What one record looks like on the wire, for the comparison. */
function describeRecord(record: BusRecord) {
  const signal = record.headers?.['svc-signal'];
  const items = record.topic === LOGS || signal === 'logs' ? decodeLogs(record.value).length : decodeTraces(record.value).length;
  return { topic: record.topic, key: record.key, partition: record.partition, headers: record.headers ?? {}, items };
}

test('spans and logs published by the collector are stored field for field, as through svc ingest', async () => {
  const nowMs = Date.now();
  const viaCollector = buildSampleTrace('otelcol-checkout', nowMs, 'otelcol');
  const collectorRoot = viaCollector.spans.find((span) => span.parentSpanContext === undefined)!;
  const collectorLogs = buildSampleLogs('otelcol-checkout', nowMs, collectorRoot, 'otelcol');
  const viaIngest = buildSampleTrace('ingest-checkout', nowMs, 'ingest');
  const ingestRoot = viaIngest.spans.find((span) => span.parentSpanContext === undefined)!;
  const ingestLogs = buildSampleLogs('ingest-checkout', nowMs, ingestRoot, 'ingest');
  for (const [ports, sample, logs] of [
    [collectorPorts, viaCollector, collectorLogs],
    [ingestPorts(), viaIngest, ingestLogs],
  ] as const) {
    const spansOut = traceExporter('grpc', ports, false);
    const logsOut = logExporter('grpc', ports, false);
    await exportSpans(spansOut, sample.spans);
    await exportLogs(logsOut, logs);
    await spansOut.shutdown();
    await logsOut.shutdown();
  }

  for (const [sample, logs] of [
    [viaCollector, collectorLogs],
    [viaIngest, ingestLogs],
  ] as const) {
    const trace = await until(`trace ${sample.traceId} through the api`, async () => {
      const response = await getJson(`${apiUrl()}/api/v1/traces/${sample.traceId}`);
      const body = response.body as {
        spans: (ReturnType<typeof expectedApiSpan> & { self_ns: number })[];
        logs: (ReturnType<typeof expectedApiLog> & { log_id: string })[];
      };
      return response.status === 200 && body.spans.length === sample.spans.length && body.logs.length === logs.length ? body : undefined;
    });
    for (const span of sample.spans) {
      const expected = expectedApiSpan(span);
      const { self_ns: _selfNs, ...got } = trace.spans.find((candidate) => candidate.span_id === expected.span_id)!;
      assert.deepEqual(got, expected);
    }
    for (const log of logs) {
      const expected = expectedApiLog(log);
      const { log_id: _logId, ...got } = trace.logs.find((candidate) => candidate.body === expected.body)!;
      assert.deepEqual(got, expected);
    }
  }

  // The records each producer left on the topics for these two traces.
  const ofTrace = (traceId: string, service: string) =>
    until(`records of ${service}`, async () => {
      const mine = captured.filter(
        (record) =>
          record.key === traceId || record.key === service || (record.topic === LOGS && decodeLogs(record.value).some((log) => log.serviceName === service)),
      );
      const onSignals = mine.filter((record) => record.topic === SIGNALS).length;
      const onLogs = mine.filter((record) => record.topic === LOGS).length;
      return onSignals >= 2 && onLogs >= 1 ? mine.map(describeRecord) : undefined;
    });
  const collectorRecords = await ofTrace(viaCollector.traceId, 'otelcol-checkout');
  const ingestRecords = await ofTrace(viaIngest.traceId, 'ingest-checkout');
  findings.collectorRecords = collectorRecords;
  findings.ingestRecords = ingestRecords;

  // On svc.signals both key by the trace id (32 lowercase hex characters) and land on Kafka's
  // murmur2 partition of it, so a trace's spans meet in one assembler whoever published them.
  for (const record of [...collectorRecords, ...ingestRecords].filter((r) => r.topic === SIGNALS)) {
    assert.match(record.key, /^[0-9a-f]{32}$/);
    assert.equal(record.partition, partitionForKey(record.key, PARTITIONS), `partition of ${record.key}`);
  }
  assert.ok(collectorRecords.filter((r) => r.topic === SIGNALS).every((r) => r.key === viaCollector.traceId));
  // Headers: the collector sends only the static svc-signal header it was given; ingest adds its item count and key kind.
  for (const record of collectorRecords) assert.deepEqual(Object.keys(record.headers), ['svc-signal']);
  for (const record of ingestRecords) assert.deepEqual(Object.keys(record.headers).sort(), ['svc-items', 'svc-key', 'svc-signal']);
});

test('the assembler analyses a failing trace published by the collector into a story', async () => {
  const t = new SdkTraces();
  const root = t.span('otelcol-frontend', 'GET /order', { kind: SpanKind.SERVER, startMs: -300, endMs: -20, error: 'upstream failed' });
  const call = t.span('otelcol-frontend', 'POST stock', { kind: SpanKind.CLIENT, parent: root, startMs: -290, endMs: -30, error: '' });
  t.span('otelcol-stock', 'reserve', { kind: SpanKind.SERVER, parent: call, startMs: -280, endMs: -40, error: 'out of stock' });
  const traceId = root.spanContext().traceId;
  // Two exports, so the trace reaches the assembler in more than one record.
  await sendSpans(collectorPorts, t.take(), 2);
  const story = await until('the story through the api', async () => {
    const response = await getJson(`${apiUrl()}/api/v1/stories/${traceId}`);
    return response.status === 200 ? (response.body as { kind: string; root_cause: { service: string; span_name: string } }) : undefined;
  });
  assert.equal(story.kind, 'error');
  assert.deepEqual([story.root_cause.service, story.root_cause.span_name], ['otelcol-stock', 'reserve']);
  const writerMetrics = await (await fetch(`http://127.0.0.1:${started.get('writer')!.ready.metrics}/metrics`)).text();
  const assemblerMetrics = await (await fetch(`http://127.0.0.1:${started.get('assembler')!.ready.metrics}/metrics`)).text();
  findings.writerDropped = metricValue(writerMetrics, 'svc_writer_dropped_items_total');
  findings.assemblerDropped = metricValue(assemblerMetrics, 'svc_assembler_dropped_items_total');
  assert.equal(findings.writerDropped, 0);
  assert.equal(findings.assemblerDropped, 0);
});

test('the logminer mines the logs the collector publishes to svc.logs', async () => {
  const service = 'otelcol-mined';
  const memoryLogs = [];
  for (let i = 0; i < 5; i++) memoryLogs.push(...buildSampleLogs(service, Date.now(), undefined, `m${i}`));
  const out = logExporter('http-protobuf', collectorPorts, true);
  await exportLogs(out, memoryLogs);
  await out.shutdown();
  const templates = await until('templates of the collector logs', async () => {
    const response = await getJson(`${apiUrl()}/api/v1/log-templates?service=${service}&since=1h`);
    const body = response.body as { template: string; count: number }[];
    return response.status === 200 && body.reduce((sum, t) => sum + t.count, 0) >= memoryLogs.length ? body : undefined;
  });
  findings.minedTemplates = templates.map((t) => [t.template, t.count]);
  assert.deepEqual(templates.map((t) => t.template).sort(), ['order <*> failed: db timeout', 'retrying order <*>']);
});
