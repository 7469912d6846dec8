/**
 * The Kafka path end to end against a real single-node broker (one per file): `svc ingest` alone
 * (topics created or left alone, records keyed as the contract says, acknowledgement and the
 * broker-down answer), and `svc all-in-one` with kafka.brokers set (the SDK round trip and a
 * story). The other split components need a ClickHouse server: see kafka-split.e2e.test.ts.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import * as grpc from '@grpc/grpc-js';
import { SpanKind } from '@opentelemetry/api';
import { Admin, ConfigResourceTypes } from '@platformatic/kafka';
import { ProtobufTraceSerializer } from 'otlp-transformer-ref';
import { createKafkaBus, type KafkaBus } from '../bus/kafka/kafka-bus.js';
import { KEY_HEADER, SIGNAL_HEADER, type BusRecord } from '../model/bus.js';
import { startAllInOne, tempDataDir, type RunningAllInOne } from '../testing/all-in-one.js';
import { getJson, metricValue } from '../testing/http.js';
import { grpcExport } from '../testing/otlp-load.js';
import { decodeRpcStatus } from '../testing/rpc-status.js';
import { startKafka, type TestKafka } from '../testing/kafka.js';
import { runSvcToExit, takenPort } from '../testing/run-svc.js';
import { buildSampleLogs, buildSampleTrace, expectedApiSpan, exportLogs, exportSpans, logExporter, traceExporter } from '../testing/otel.js';
import { SdkTraces, sendSpans, until } from '../testing/sdk-trace.js';
import { partitionForKey } from '../util/murmur2.js';
import { createLogger } from '../util/log.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const DAY_MS = '86400000';

let kafka: TestKafka;
let admin: Admin;
let bus: KafkaBus;

before(async () => {
  kafka = await startKafka();
  admin = new Admin({ clientId: 'e2e-check', bootstrapBrokers: [kafka.brokers] });
  bus = createKafkaBus({ brokers: kafka.brokers, clientId: 'e2e-check', maxRecordBytes: 900_000 }, { logger: createLogger('error') });
});

after(async () => {
  await bus?.close();
  await admin?.close();
  await kafka?.stop();
});

interface RunningIngest {
  grpcPort: number;
  httpPort: number;
  logs: Record<string, unknown>[];
  stop(): Promise<number | null>;
}

/** Starts the real `svc ingest` on loopback port 0 against the test broker. */
async function startIngest(env: Record<string, string> = {}): Promise<RunningIngest> {
  const child: ChildProcess = spawn(process.env.SVC_TEST_NODE ?? process.execPath, [join(ROOT, 'bin/svc.js'), 'ingest'], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      SVC__KAFKA__BROKERS: kafka.brokers,
      SVC__HTTP_ADDR: '127.0.0.1:0',
      SVC__GRPC_ADDR: '127.0.0.1:0',
      ...env,
    },
  });
  const logs: Record<string, unknown>[] = [];
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  let stderrTail = '';
  const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
    createInterface({ input: child.stderr! }).on('line', (line) => {
      stderrTail = (stderrTail + line + '\n').slice(-4000);
      try {
        const entry = JSON.parse(line) as Record<string, unknown>;
        logs.push(entry);
        if (entry.msg === 'svc ingest ready') resolve(entry);
      } catch {
        // a start-up error message
      }
    });
    child.stdout!.resume();
    void exited.then((code) => reject(new Error(`svc ingest exited with ${code} before ready:\n${stderrTail}`)));
  });
  return {
    grpcPort: Number(ready.grpc),
    httpPort: Number(ready.http),
    logs,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

async function topicState(topic: string): Promise<{ partitions: number | undefined; retentionMs: string }> {
  const metadata = await admin.metadata({ topics: [topic], forceUpdate: true });
  const [description] = await admin.describeConfigs({
    resources: [{ resourceType: ConfigResourceTypes.TOPIC, resourceName: topic, configurationKeys: ['retention.ms'] }],
  });
  return {
    partitions: metadata.topics.get(topic)?.partitionsCount,
    retentionMs: String(description.configs.find((config) => config.name === 'retention.ms')?.value),
  };
}

describe('svc ingest alone against Kafka', () => {
  let ingest: RunningIngest;
  const seen: BusRecord[] = [];

  before(async () => {
    ingest = await startIngest();
  });

  after(async () => {
    await ingest?.stop();
  });

  test("creates the absent topics with the contract's partitions and retention", async () => {
    assert.deepEqual(await topicState('svc.signals'), { partitions: 12, retentionMs: DAY_MS });
    assert.deepEqual(await topicState('svc.logs'), { partitions: 12, retentionMs: DAY_MS });
    assert.deepEqual(await topicState('svc.stories'), { partitions: 3, retentionMs: DAY_MS });
    assert.deepEqual(await topicState('svc.alerts'), { partitions: 3, retentionMs: DAY_MS });
  });

  test('acknowledged exports are on svc.signals keyed by trace id and on svc.logs keyed by service', async () => {
    const nowMs = Date.now();
    const sample = buildSampleTrace('ingest-only', nowMs, 'k1');
    const root = sample.spans.find((span) => span.parentSpanContext === undefined)!;
    const logs = buildSampleLogs('ingest-only', nowMs, root, 'k1');
    const endpoints = { grpcPort: ingest.grpcPort, otlpHttpPort: ingest.httpPort };
    const spansOut = traceExporter('grpc', endpoints, false);
    const logsOut = logExporter('http-protobuf', endpoints, false);
    await exportSpans(spansOut, sample.spans); // rejects unless acknowledged
    await exportLogs(logsOut, logs);
    await spansOut.shutdown();
    await logsOut.shutdown();

    const consumer = bus.consume({ group: 'e2e-check', topics: ['svc.signals', 'svc.logs'], handler: async (records) => void seen.push(...records) });
    try {
      await until('the trace on svc.signals and the logs on svc.logs', async () =>
        seen.some((record) => record.topic === 'svc.signals' && record.headers?.[SIGNAL_HEADER] === 'traces' && record.key === sample.traceId) &&
        seen.some((record) => record.topic === 'svc.logs' && record.key === 'ingest-only')
          ? true
          : undefined,
      );
    } finally {
      await consumer.close();
    }
    const spanRecord = seen.find((record) => record.topic === 'svc.signals' && record.key === sample.traceId && record.headers?.[SIGNAL_HEADER] === 'traces')!;
    assert.equal(spanRecord.partition, partitionForKey(sample.traceId, 12), "the default partitioner's partition");
    assert.equal(spanRecord.headers?.[KEY_HEADER], 'trace');
    assert.ok(
      sample.spans.every((span) => spanRecord.value.includes(Buffer.from(span.spanContext().spanId, 'hex'))),
      'every span of the trace in its record',
    );
    const logRecord = seen.find((record) => record.topic === 'svc.logs' && record.key === 'ingest-only')!;
    assert.equal(logRecord.partition, partitionForKey('ingest-only', 12));
    assert.equal(logRecord.headers?.[SIGNAL_HEADER], 'logs');
    const metrics = await (await fetch(`http://127.0.0.1:${ingest.httpPort}/metrics`)).text();
    assert.ok(metricValue(metrics, 'svc_ingest_records_published_total', { topic: 'svc.signals' }) >= 1);
  });
});

describe('svc all-in-one with kafka.brokers set', () => {
  const data = tempDataDir('svc-e2e-kafka-');
  let svc: RunningAllInOne;

  before(async () => {
    svc = await startAllInOne({
      dataDir: data.dir,
      env: { SVC__KAFKA__BROKERS: kafka.brokers, SVC__ASSEMBLER__GAP_MS: '300', SVC__WRITER__MAX_AGE_MS: '200' },
    });
  });

  after(async () => {
    const code = await svc?.stop();
    data.cleanup();
    const problems = svc.logs.filter((entry) => Number(entry.level) >= 40);
    assert.deepEqual(problems, [], 'no warnings or errors from all-in-one over Kafka');
    assert.equal(code, 0, 'a clean stop');
  });

  test('a trace exported through the SDK is read back through the API', async () => {
    const nowMs = Date.now();
    const sample = buildSampleTrace('kafka-checkout', nowMs, 'k2');
    const spansOut = traceExporter('http-protobuf', { grpcPort: svc.grpcPort, otlpHttpPort: svc.otlpHttpPort }, true);
    await exportSpans(spansOut, sample.spans);
    await spansOut.shutdown();
    const trace = await until('the trace in the API', async () => {
      const response = await getJson(`${svc.apiUrl}/api/v1/traces/${sample.traceId}`);
      const body = response.body as { spans: { span_id: string }[] };
      return response.status === 200 && body.spans.length === sample.spans.length
        ? (body as { spans: (ReturnType<typeof expectedApiSpan> & { self_ns: number })[] })
        : undefined;
    });
    for (const span of sample.spans) {
      const expected = expectedApiSpan(span);
      const { self_ns: _self, ...got } = trace.spans.find((candidate) => candidate.span_id === expected.span_id)!;
      assert.deepEqual(got, expected);
    }
  });

  test('a failing trace becomes a story, and the pipeline lag is read from the broker', async () => {
    const t = new SdkTraces();
    const root = t.span('kafka-frontend', 'GET /pay', { kind: SpanKind.SERVER, startMs: -300, endMs: -20, error: 'upstream failed' });
    const call = t.span('kafka-frontend', 'POST payments', { kind: SpanKind.CLIENT, parent: root, startMs: -290, endMs: -30, error: '' });
    t.span('kafka-payments', 'charge', { kind: SpanKind.SERVER, parent: call, startMs: -280, endMs: -40, error: 'card declined' });
    const traceId = root.spanContext().traceId;
    await sendSpans({ grpcPort: svc.grpcPort, otlpHttpPort: svc.otlpHttpPort }, t.take());
    const story = await until('the story', async () => {
      const response = await getJson(`${svc.apiUrl}/api/v1/stories/${traceId}`);
      return response.status === 200 ? (response.body as { kind: string; root_cause: { service: string; span_name: string } }) : undefined;
    });
    assert.equal(story.kind, 'error');
    assert.deepEqual([story.root_cause.service, story.root_cause.span_name], ['kafka-payments', 'charge']);

    const lag = await until('the writer caught up in the lag table', async () => {
      const response = await getJson(`${svc.apiUrl}/api/v1/pipeline/lag`);
      assert.equal(response.status, 200);
      const rows = response.body as { group: string; topic: string; committed: number; end: number; lag: number }[];
      const writer = rows.find((row) => row.group === 'svc-writer' && row.topic === 'svc.signals');
      return writer !== undefined && writer.lag === 0 && writer.end > 0 ? rows : undefined;
    });
    assert.ok(
      lag.some((row) => row.group === 'svc-assembler' && row.topic === 'svc.signals'),
      JSON.stringify(lag),
    );
  });
});

describe('svc all-in-one over Kafka with a listener that cannot bind', () => {
  test('stops with one line naming the setting and status 1, its consumers gone from their groups', async () => {
    const taken = await takenPort();
    const data = tempDataDir('svc-e2e-kafka-taken-');
    try {
      for (const [setting, variable] of [
        ['http_addr', 'SVC__HTTP_ADDR'],
        ['otlp_http_addr', 'SVC__OTLP_HTTP_ADDR'],
      ]) {
        const result = await runSvcToExit(['all-in-one'], {
          SVC__KAFKA__BROKERS: kafka.brokers,
          SVC__EMBEDDED__DATA_DIR: data.dir,
          SVC__HTTP_ADDR: '127.0.0.1:0',
          SVC__GRPC_ADDR: '127.0.0.1:0',
          SVC__OTLP_HTTP_ADDR: '127.0.0.1:0',
          [variable]: `127.0.0.1:${taken.port}`,
        });
        assert.equal(result.code, 1, result.stderr);
        assert.deepEqual(result.messages, [`svc: ${setting} 127.0.0.1:${taken.port} is in use; set ${setting} to a free address`]);
        // The consumers left their groups on the way out: no partition is held by a process that is gone.
        const groups = await admin.describeGroups({ groups: [...(await admin.listGroups()).keys()] });
        for (const group of groups.values()) assert.equal(group.members.size, 0, `members left in ${group.id}`);
      }
    } finally {
      taken.server.close();
      data.cleanup();
    }
  });
});

describe('a second ingest with other topic settings, then the broker stopped', () => {
  let ingest: RunningIngest;

  before(async () => {
    ingest = await startIngest({ SVC__KAFKA__PARTITIONS: '2', SVC__KAFKA__RETENTION_MS: '60000' });
  });

  after(async () => {
    await ingest?.stop();
  });

  test('existing topics are not altered', async () => {
    assert.deepEqual(await topicState('svc.signals'), { partitions: 12, retentionMs: DAY_MS });
    assert.deepEqual(await topicState('svc.logs'), { partitions: 12, retentionMs: DAY_MS });
  });

  test('exports are answered retry-later (HTTP 503 + Retry-After, gRPC UNAVAILABLE + RetryInfo) and counted as publish failures', async () => {
    await kafka.stop();
    const sample = buildSampleTrace('broker-down', Date.now(), 'k3');
    const body = Buffer.from(ProtobufTraceSerializer.serializeRequest(sample.spans)!);
    const response = await fetch(`http://127.0.0.1:${ingest.httpPort}/v1/traces`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-protobuf' },
      body,
    });
    assert.equal(response.status, 503);
    assert.equal(response.headers.get('retry-after'), '1');
    const httpStatus = decodeRpcStatus(Buffer.from(await response.arrayBuffer()));
    assert.deepEqual([httpStatus.code, httpStatus.message], [grpc.status.UNAVAILABLE, 'the message broker is unavailable, retry later']);

    // As docs/ingest.md says: UNAVAILABLE with a RetryInfo of one second, like every other "retry later".
    const client = new grpc.Client(`127.0.0.1:${ingest.grpcPort}`, grpc.credentials.createInsecure());
    const answer = await grpcExport(client, body);
    client.close();
    assert.equal(answer.code, grpc.status.UNAVAILABLE);
    assert.ok(answer.statusDetails !== undefined, 'grpc-status-details-bin set');
    const grpcStatus = decodeRpcStatus(answer.statusDetails);
    assert.deepEqual(grpcStatus, {
      code: grpc.status.UNAVAILABLE,
      message: 'the message broker is unavailable, retry later',
      retryDelaysSecs: [1],
      detailTypes: ['type.googleapis.com/google.rpc.RetryInfo'],
    });

    const metrics = await (await fetch(`http://127.0.0.1:${ingest.httpPort}/metrics`)).text();
    assert.equal(metricValue(metrics, 'svc_ingest_publish_failures_total'), 2);
  });
});
