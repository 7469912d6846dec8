/**
 * The split deployment over a real Kafka broker: ingest, writer, assembler, logminer, notifier and
 * api started by the same code as `svc <component>` (startSplitComponent), each with its own Kafka
 * client, registry and metrics port. They share one store through the ClickHouse HTTP driver on
 * chDB's in-process transport, because no ClickHouse server can run on the test machines and chDB
 * cannot be opened by several processes.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SpanKind } from '@opentelemetry/api';
import type { ClickHouseClientConfigOptions } from '@clickhouse/client';
import { createChdbConnection } from 'chdb/connection';
import { Registry } from 'prom-client';
import { createKafkaBus } from '../bus/kafka/kafka-bus.js';
import { startSplitComponent, type SplitComponent, type StartedComponent } from '../cli/split.js';
import { loadSettings } from '../config/load.js';
import type { Store } from '../model/store.js';
import { HttpStore } from '../store/http-store.js';
import { migrate } from '../store/migrate.js';
import { getJson, metricValue } from '../testing/http.js';
import { startKafka, type TestKafka } from '../testing/kafka.js';
import { SdkTraces, sendSpans, until } from '../testing/sdk-trace.js';
import { createLogger } from '../util/log.js';

let kafka: TestKafka;
let store: Store;
const dir = mkdtempSync(join(tmpdir(), 'svc-e2e-split-'));
const started = new Map<SplitComponent, StartedComponent>();
const logger = createLogger('error');

/** The store every component gets; closed once, after all of them. */
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

async function startComponent(component: SplitComponent, env: Record<string, string> = {}): Promise<StartedComponent> {
  const settings = loadSettings(component, {
    SVC__KAFKA__BROKERS: kafka.brokers,
    SVC__CLICKHOUSE__URL: 'http://in-process.invalid',
    SVC__HTTP_ADDR: '127.0.0.1:0',
    SVC__GRPC_ADDR: '127.0.0.1:0',
    SVC__WRITER__METRICS_ADDR: '127.0.0.1:0',
    SVC__ASSEMBLER__METRICS_ADDR: '127.0.0.1:0',
    SVC__LOGMINER__METRICS_ADDR: '127.0.0.1:0',
    SVC__NOTIFIER__METRICS_ADDR: '127.0.0.1:0',
    SVC__WRITER__MAX_AGE_MS: '200',
    SVC__ASSEMBLER__GAP_MS: '300',
    RUST_LOG: 'error',
    ...env,
  });
  const bus = createKafkaBus({ brokers: kafka.brokers, clientId: `svc-${component}`, maxRecordBytes: settings.kafka.max_record_bytes }, { logger });
  const component_ = await startSplitComponent(component, settings, { bus, registry: new Registry(), logger, openStore: async () => shared(store) });
  started.set(component, component_);
  return component_;
}

before(async () => {
  kafka = await startKafka();
  // chdb types its Connection against an older @clickhouse/client-common; the runtime contract is the one the client calls.
  store = await HttpStore.open(
    'http://in-process.invalid',
    'svc',
    () => createChdbConnection({ path: join(dir, 'chdb') }) as unknown as ClickHouseClientConfigOptions['connection'],
  );
  await migrate(store);
  for (const component of ['writer', 'assembler', 'logminer', 'notifier'] as const) await startComponent(component);
  await startComponent('ingest');
  // metric_targets can be set only in the file: the consumers' and ingest's bound ports.
  const targets = (['writer', 'assembler', 'logminer', 'notifier'] as const).map((name) => ({
    job: `svc-${name}`,
    url: `http://127.0.0.1:${started.get(name)!.ready.metrics}/metrics`,
  }));
  targets.push({ job: 'svc-ingest', url: `http://127.0.0.1:${started.get('ingest')!.ready.http}/metrics` });
  const configFile = join(dir, 'svc.toml');
  writeFileSync(configFile, targets.map((target) => `[[metric_targets]]\njob = "${target.job}"\nurl = "${target.url}"\n`).join('\n'));
  await startComponent('api', { SVC_CONFIG: configFile, SVC__RECORD_SECS: '1' });
});

after(async () => {
  const clean: Record<string, boolean> = {};
  // Ingest first so nothing new arrives, the api last so it can still be read while consumers drain.
  for (const component of ['ingest', 'assembler', 'logminer', 'notifier', 'writer', 'api'] as const) {
    const running = started.get(component);
    if (running !== undefined) clean[component] = await running.close();
  }
  await store?.close();
  await kafka?.stop();
  rmSync(dir, { recursive: true, force: true });
  assert.deepEqual(
    Object.values(clean).filter((ok) => !ok),
    [],
    `every component closed cleanly: ${JSON.stringify(clean)}`,
  );
});

const apiUrl = () => `http://127.0.0.1:${started.get('api')!.ready.api}`;

test('a failing trace sent to ingest is stored by the writer, becomes a story in the assembler, and is read through the api', async () => {
  const t = new SdkTraces();
  const root = t.span('split-frontend', 'GET /order', { kind: SpanKind.SERVER, startMs: -300, endMs: -20, error: 'upstream failed' });
  const call = t.span('split-frontend', 'POST stock', { kind: SpanKind.CLIENT, parent: root, startMs: -290, endMs: -30, error: '' });
  t.span('split-stock', 'reserve', { kind: SpanKind.SERVER, parent: call, startMs: -280, endMs: -40, error: 'out of stock' });
  const traceId = root.spanContext().traceId;
  await sendSpans({ grpcPort: started.get('ingest')!.ready.grpc, otlpHttpPort: started.get('ingest')!.ready.http }, t.take());

  const trace = await until('the trace through the api', async () => {
    const response = await getJson(`${apiUrl()}/api/v1/traces/${traceId}`);
    const body = response.body as { spans: { span_name: string }[] };
    return response.status === 200 && body.spans.length === 3 ? body : undefined;
  });
  assert.deepEqual(trace.spans.map((span) => span.span_name).sort(), ['GET /order', 'POST stock', 'reserve']);
  const story = await until('the story through the api', async () => {
    const response = await getJson(`${apiUrl()}/api/v1/stories/${traceId}`);
    return response.status === 200 ? (response.body as { kind: string; root_cause: { service: string; span_name: string } }) : undefined;
  });
  assert.equal(story.kind, 'error');
  assert.deepEqual([story.root_cause.service, story.root_cause.span_name], ['split-stock', 'reserve']);
});

test('each consumer serves its metrics on its metrics_addr, and the api records them from metric_targets', async () => {
  const writerMetrics = await (await fetch(`http://127.0.0.1:${started.get('writer')!.ready.metrics}/metrics`)).text();
  assert.match(writerMetrics, /^svc_writer_/m);
  assert.ok(metricValue(writerMetrics, 'process_resident_memory_bytes') > 0, 'the process metrics of the component');
  const assemblerMetrics = await (await fetch(`http://127.0.0.1:${started.get('assembler')!.ready.metrics}/metrics`)).text();
  assert.match(assemblerMetrics, /^svc_assembler_late_items_total/m);
  for (const job of ['svc-writer', 'svc-assembler', 'svc-logminer', 'svc-notifier', 'svc-ingest']) {
    await until(`up recorded for ${job}`, async () => {
      const response = await getJson(`${apiUrl()}/api/v1/pipeline/series?metric=up&kind=gauge&job=${job}&since=5m`);
      assert.equal(response.status, 200, JSON.stringify(response.body));
      const points = (response.body as { points: [number, number | null][] }).points;
      return points.some(([, value]) => value === 1) ? true : undefined;
    });
  }
});
