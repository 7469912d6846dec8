import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import * as grpc from '@grpc/grpc-js';
import { startAllInOne, tempDataDir, type RunningAllInOne } from '../testing/all-in-one.js';
import { getJson, metricValue, pollJson } from '../testing/http.js';
import { stringifyJson } from '../util/json.js';
import type { SpanRow } from '../model/signals.js';
import { encodeTracesData } from '../otlp/encode-traces.js';
import {
  buildSampleLogs,
  buildSampleTrace,
  expectedApiLog,
  expectedApiSpan,
  exportLogs,
  exportSpans,
  logExporter,
  traceExporter,
  type ExporterKind,
} from '../testing/otel.js';

interface ApiTrace {
  trace_id: string;
  spans: (ReturnType<typeof expectedApiSpan> & { self_ns: number })[];
  logs: (ReturnType<typeof expectedApiLog> & { log_id: string })[];
  story_id: string | null;
}

const data = tempDataDir('svc-e2e-ingest-');
let svc: RunningAllInOne;

async function metricsText(): Promise<string> {
  return (await fetch(`${svc.apiUrl}/metrics`)).text();
}

/** The stored trace once it holds the sent spans and logs (the writer stores after the export's acknowledgement). */
async function getTrace(traceId: string, sent?: Awaited<ReturnType<typeof sendSample>>): Promise<ApiTrace> {
  const response = await pollJson(`${svc.apiUrl}/api/v1/traces/${traceId}`, ({ status, body }) => {
    if (status !== 200) return false;
    const trace = body as ApiTrace;
    return sent === undefined || (trace.spans.length >= sent.sample.spans.length && trace.logs.length >= sent.logs.length);
  });
  assert.equal(response.status, 200, `trace ${traceId}: ${stringifyJson(response.body)}`);
  return response.body as ApiTrace;
}

/** Sends one trace and its logs through one exporter kind and returns what was sent. */
async function sendSample(kind: ExporterKind, gzip: boolean, tag: string) {
  const nowMs = Date.now();
  const sample = buildSampleTrace(`checkout-${tag}`, nowMs, tag);
  const rootSpan = sample.spans.find((span) => span.parentSpanContext === undefined)!;
  const logs = buildSampleLogs(`checkout-${tag}`, nowMs, rootSpan, tag);
  const endpoints = { grpcPort: svc.grpcPort, otlpHttpPort: svc.otlpHttpPort };
  const spansOut = traceExporter(kind, endpoints, gzip);
  const logsOut = logExporter(kind, endpoints, gzip);
  await exportSpans(spansOut, sample.spans);
  await exportLogs(logsOut, logs);
  await spansOut.shutdown();
  await logsOut.shutdown();
  return { sample, logs };
}

function assertTraceEquals(actual: ApiTrace, sent: Awaited<ReturnType<typeof sendSample>>): void {
  assert.equal(actual.trace_id, sent.sample.traceId);
  assert.equal(actual.spans.length, sent.sample.spans.length);
  for (const span of sent.sample.spans) {
    const expected = expectedApiSpan(span);
    const got = actual.spans.find((candidate) => candidate.span_id === expected.span_id);
    assert.ok(got, `span ${expected.span_id} missing`);
    const { self_ns: selfNs, ...rest } = got;
    assert.deepEqual(rest, expected);
    assert.equal(typeof selfNs, 'number');
  }
  assert.equal(actual.logs.length, sent.logs.length);
  for (const log of sent.logs) {
    const expected = expectedApiLog(log);
    const got = actual.logs.find((candidate) => candidate.body === expected.body);
    assert.ok(got, `log ${expected.body} missing`);
    const { log_id: logId, ...rest } = got;
    assert.deepEqual(rest, expected);
    assert.match(logId, /^\d+$/);
  }
}

before(async () => {
  svc = await startAllInOne({ dataDir: data.dir, env: { SVC__WRITER__MAX_AGE_MS: '200' } });
});

after(async () => {
  await svc?.stop();
  data.cleanup();
});

const sentTraces: Awaited<ReturnType<typeof sendSample>>[] = [];

describe('the real OpenTelemetry SDK exporters', () => {
  for (const kind of ['grpc', 'http-protobuf', 'http-json'] as const) {
    for (const gzip of [true, false]) {
      test(`${kind}${gzip ? ' with gzip' : ''}: every span and log reads back equal`, async () => {
        const sent = await sendSample(kind, gzip, `${kind}-${gzip ? 'gz' : 'plain'}`);
        sentTraces.push(sent);
        assertTraceEquals(await getTrace(sent.sample.traceId, sent), sent);
      });
    }
  }

  test('self_ns is the duration minus the direct children', async () => {
    const trace = await getTrace(sentTraces[0].sample.traceId);
    const root = trace.spans.find((span) => span.parent_span_id === '')!;
    const children = trace.spans.filter((span) => span.parent_span_id === root.span_id);
    const expected = Number(root.duration_ns) - children.reduce((sum, span) => sum + Number(span.duration_ns), 0);
    assert.equal(root.self_ns, expected);
  });

  test('services lists the senders, sorted', async () => {
    const response = await getJson(`${svc.apiUrl}/api/v1/services`);
    assert.equal(response.status, 200);
    const services = response.body as string[];
    assert.ok(services.includes('checkout-grpc-gz') && services.includes('checkout-http-json-plain'), JSON.stringify(services));
    assert.deepEqual([...services].sort(), services);
  });
});

describe('bad input', () => {
  async function postRaw(path: string, body: Buffer, contentType: string, extraHeaders: Record<string, string> = {}) {
    return fetch(`http://127.0.0.1:${svc.otlpHttpPort}${path}`, { method: 'POST', body, headers: { 'content-type': contentType, ...extraHeaders } });
  }

  test('each bad request gets its status and counter; data before and after stays intact', async () => {
    const before = await sendSample('http-protobuf', false, 'before-bad');
    const rejectedBefore = metricValue(await metricsText(), 'svc_ingest_rejected_requests_total');
    const valid = Buffer.from([0x0a, 0x02, 0x0a, 0x00]); // ResourceSpans{resource{}}
    const cases: [string, Promise<Response>, number][] = [
      ['truncated protobuf', postRaw('/v1/traces', Buffer.from([0x0a, 0x10, 0x0a]), 'application/x-protobuf'), 400],
      ['random bytes', postRaw('/v1/traces', randomBytes(512), 'application/x-protobuf'), 400],
      ['random bytes, gzip', postRaw('/v1/logs', gzipSync(randomBytes(256)), 'application/x-protobuf', { 'content-encoding': 'gzip' }), 400],
      ['not gzip but says gzip', postRaw('/v1/traces', valid, 'application/x-protobuf', { 'content-encoding': 'gzip' }), 400],
      ['wrong content type', postRaw('/v1/traces', valid, 'text/plain'), 415],
      [
        'JSON with wrong types',
        postRaw(
          '/v1/traces',
          Buffer.from(JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [{ traceId: 5, spanId: true, name: 7 }] }] }] })),
          'application/json',
        ),
        400,
      ],
      ['JSON not JSON', postRaw('/v1/logs', Buffer.from('{"resourceLogs": ['), 'application/json'), 400],
      ['oversize message', postRaw('/v1/traces', Buffer.alloc(64 * 1024 * 1024 + 1), 'application/x-protobuf'), 413],
    ];
    for (const [name, responsePromise, status] of cases) {
      const response = await responsePromise;
      assert.equal(response.status, status, name);
      await response.arrayBuffer();
    }
    const rejectedAfter = metricValue(await metricsText(), 'svc_ingest_rejected_requests_total');
    assert.equal(rejectedAfter - rejectedBefore, cases.length);

    const grpcRejected = await grpcRawCall('/opentelemetry.proto.collector.trace.v1.TraceService/Export', randomBytes(300));
    assert.equal(grpcRejected, grpc.status.INVALID_ARGUMENT);
    assert.equal(metricValue(await metricsText(), 'svc_ingest_rejected_requests_total', { transport: 'grpc' }), 1);

    const afterSent = await sendSample('grpc', true, 'after-bad');
    assertTraceEquals(await getTrace(before.sample.traceId, before), before);
    assertTraceEquals(await getTrace(afterSent.sample.traceId, afterSent), afterSent);
  });

  test('OTLP metrics are not accepted: HTTP 404, gRPC UNIMPLEMENTED', async () => {
    const response = await postRaw('/v1/metrics', Buffer.alloc(0), 'application/x-protobuf');
    assert.equal(response.status, 404);
    assert.equal(await grpcRawCall('/opentelemetry.proto.collector.metrics.v1.MetricsService/Export', Buffer.alloc(0)), grpc.status.UNIMPLEMENTED);
    assert.equal((await fetch(`http://127.0.0.1:${svc.otlpHttpPort}/elsewhere`)).status, 404);
  });

  async function grpcRawCall(path: string, body: Buffer): Promise<grpc.status> {
    const client = new grpc.Client(`127.0.0.1:${svc.grpcPort}`, grpc.credentials.createInsecure());
    try {
      return await new Promise((resolve) => {
        client.makeUnaryRequest(
          path,
          (value: Buffer) => value,
          (value: Buffer) => value,
          body,
          (error) => resolve(error ? (error.code as grpc.status) : grpc.status.OK),
        );
      });
    } finally {
      client.close();
    }
  }
});

describe('keep-alive', () => {
  test("an exporter connection idle for the SDKs' 5 s export interval takes the next export (no close under it)", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const post = () =>
      new Promise<{ status: number; keepAlive: string; reused: boolean }>((resolve, reject) => {
        const request = http.request(
          { host: '127.0.0.1', port: svc.otlpHttpPort, path: '/v1/traces', method: 'POST', agent, headers: { 'content-type': 'application/x-protobuf' } },
          (response) => {
            response.resume();
            response.on('end', () =>
              resolve({ status: response.statusCode ?? 0, keepAlive: String(response.headers['keep-alive'] ?? ''), reused: request.reusedSocket }),
            );
          },
        );
        request.on('error', reject);
        request.end(Buffer.alloc(0));
      });
    try {
      const first = await post();
      assert.equal(first.status, 200);
      // The idle timeout advertised to clients outlasts any SDK's default export interval.
      assert.ok(Number(/timeout=(\d+)/.exec(first.keepAlive)?.[1]) >= 60, `keep-alive header ${first.keepAlive}`);
      // The scenario itself is a pause: an SDK's batch processor waits 5 s between exports.
      await new Promise((resolve) => setTimeout(resolve, 5_500));
      const second = await post();
      assert.equal(second.status, 200);
      assert.equal(second.reused, true, 'the same connection carried the next export');
    } finally {
      agent.destroy();
    }
  });
});

describe('API basics', () => {
  test('healthz, metrics, unknown routes and bad ids', async () => {
    const health = await fetch(`${svc.apiUrl}/healthz`);
    assert.equal(await health.text(), 'ok');
    const metrics = await metricsText();
    for (const name of [
      'svc_ingest_records_published_total',
      'svc_ingest_publish_failures_total',
      'svc_ingest_rejected_requests_total',
      'svc_api_repo_errors_total',
      'svc_writer_rows_written_total',
    ]) {
      assert.ok(metrics.includes(name), `${name} in /metrics`);
    }
    assert.ok(metricValue(metrics, 'svc_ingest_records_published_total') > 0);
    const unknown = await getJson(`${svc.apiUrl}/api/v1/nope`);
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.body, { error: 'not found' });
    const badId = await getJson(`${svc.apiUrl}/api/v1/traces/xyz`);
    assert.equal(badId.status, 400);
    assert.deepEqual(badId.body, { error: 'id must be 32 hexadecimal characters' });
    const missing = await getJson(`${svc.apiUrl}/api/v1/traces/${'ab'.repeat(16)}`);
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.body, { error: 'not found' });
  });
});

describe('retention at insert', () => {
  test('items stamped 0 or older than 3 days are accepted but not stored', async () => {
    const fourDaysAgoMs = Date.now() - 4 * 24 * 3600 * 1000;
    const old = buildSampleTrace('old-service', fourDaysAgoMs, 'old');
    const exporter = traceExporter('http-protobuf', { grpcPort: svc.grpcPort, otlpHttpPort: svc.otlpHttpPort }, false);
    await exportSpans(exporter, old.spans);
    const zero = buildSampleTrace('zero-service', 50, 'zero'); // stamped within the first 50 ms of 1970
    await exportSpans(exporter, zero.spans);
    await exporter.shutdown();
    // Acknowledged on the bus; the writer's verdict follows: wait for it, then look.
    const expectedDrops = old.spans.length + zero.spans.length;
    const deadline = Date.now() + 30_000;
    while (metricValue(await metricsText(), 'svc_writer_dropped_items_total', { reason: 'too_old' }) < expectedDrops && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(metricValue(await metricsText(), 'svc_writer_dropped_items_total', { reason: 'too_old' }) >= expectedDrops);
    assert.equal((await getJson(`${svc.apiUrl}/api/v1/traces/${old.traceId}`)).status, 404);
    assert.equal((await getJson(`${svc.apiUrl}/api/v1/traces/${zero.traceId}`)).status, 404);
  });
});

describe('items the store could never return', () => {
  test('all-zero ids and times past the store are dropped, counted and reported as rejected; the rest of the export is stored', async () => {
    const nowNs = BigInt(Date.now()) * 1_000_000n;
    const goodTraceId = randomBytes(16).toString('hex');
    const farTraceId = randomBytes(16).toString('hex');
    const span = (traceId: string, spanId: string, startNs: bigint, name: string) => ({
      traceId,
      spanId,
      name,
      kind: 2,
      startTimeUnixNano: String(startNs),
      endTimeUnixNano: String(startNs === 2n ** 64n - 1n ? startNs : startNs + 1_000_000n),
    });
    const body = {
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'validity-check' } }] },
          scopeSpans: [
            {
              spans: [
                span(goodTraceId, randomBytes(8).toString('hex'), nowNs, 'GET /good'),
                span(farTraceId, randomBytes(8).toString('hex'), 2n ** 64n - 1n, 'GET /far'),
                span('0'.repeat(32), randomBytes(8).toString('hex'), nowNs, 'GET /zero-trace'),
                span(goodTraceId, '0'.repeat(16), nowNs, 'GET /zero-span'),
              ],
            },
          ],
        },
      ],
    };
    const response = await fetch(`http://127.0.0.1:${svc.otlpHttpPort}/v1/traces`, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(response.status, 200);
    const answer = (await response.json()) as { partialSuccess?: { rejectedSpans?: string; errorMessage?: string } };
    assert.equal(answer.partialSuccess?.rejectedSpans, '3');
    assert.match(answer.partialSuccess?.errorMessage ?? '', /^dropped 3 spans: /);
    assert.match(answer.partialSuccess?.errorMessage ?? '', /2 with an all-zero trace or span id/);
    assert.match(answer.partialSuccess?.errorMessage ?? '', /1 with a time past 2262-04-11/);
    const metrics = await metricsText();
    assert.equal(metricValue(metrics, 'svc_ingest_dropped_items_total', { reason: 'invalid_id' }), 2);
    assert.equal(metricValue(metrics, 'svc_ingest_dropped_items_total', { reason: 'time_out_of_range' }), 1);

    const good = await pollJson(`${svc.apiUrl}/api/v1/traces/${goodTraceId}`, ({ status }) => status === 200);
    assert.equal(good.status, 200);
    assert.deepEqual(
      (good.body as ApiTrace).spans.map((s) => s.span_name),
      ['GET /good'],
    );
    assert.equal((await getJson(`${svc.apiUrl}/api/v1/traces/${farTraceId}`)).status, 404);
    assert.equal((await getJson(`${svc.apiUrl}/api/v1/traces/${'0'.repeat(32)}`)).status, 404);
  });

  test('over gRPC the answer is an ExportTraceServiceResponse with partial_success', async () => {
    const nowNs = BigInt(Date.now()) * 1_000_000n;
    const row = (traceId: string, startNs: bigint): SpanRow => ({
      traceId,
      spanId: randomBytes(8).toString('hex'),
      parentSpanId: '',
      serviceName: 'validity-grpc',
      name: 'GET /x',
      kind: 'server',
      startNs,
      endNs: startNs,
      status: 'unset',
      statusMessage: '',
      attrs: [],
      resource: [],
      events: [],
      scopeName: '',
      scopeVersion: '',
    });
    const goodTraceId = randomBytes(16).toString('hex');
    const body = encodeTracesData([row(goodTraceId, nowNs), row(randomBytes(16).toString('hex'), 2n ** 63n)]);
    const client = new grpc.Client(`127.0.0.1:${svc.grpcPort}`, grpc.credentials.createInsecure());
    const answer = await new Promise<Buffer>((resolve, reject) => {
      client.makeUnaryRequest(
        '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
        (value: Buffer) => value,
        (value: Buffer) => value,
        body,
        (error, value) => (error ? reject(error) : resolve(value!)),
      );
    }).finally(() => client.close());
    // partial_success (1) { rejected_spans (1) = 1, error_message (2) }
    const message = 'dropped 1 span: 1 with a time past 2262-04-11 (beyond the store)';
    const inner = Buffer.concat([Buffer.from([0x08, 0x01, 0x12, message.length]), Buffer.from(message)]);
    assert.deepEqual(answer, Buffer.concat([Buffer.from([0x0a, inner.length]), inner]));
    const good = await pollJson(`${svc.apiUrl}/api/v1/traces/${goodTraceId}`, ({ status }) => status === 200);
    assert.equal(good.status, 200);
  });
});

describe('restart', () => {
  test('everything accepted before a stop is there after a start on the same data dir', async () => {
    const exitCode = await svc.stop();
    assert.equal(exitCode, 0);
    svc = await startAllInOne({ dataDir: data.dir });
    for (const sent of sentTraces) assertTraceEquals(await getTrace(sent.sample.traceId, sent), sent);
  });
});
