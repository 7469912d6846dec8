import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import * as grpc from '@grpc/grpc-js';
import { startAllInOne, tempDataDir, type RunningAllInOne } from '../testing/all-in-one.js';
import { metricValue, pollJson } from '../testing/http.js';
import { buildTraceExport, grpcClient, grpcExport, postExport, rssBytes, type SentTrace } from '../testing/otlp-load.js';
import { decodeRpcStatus } from '../testing/rpc-status.js';

/**
 * A flood of large exports from many keep-alive HTTP clients and several gRPC clients, past small
 * in-flight bounds: the excess is answered at once with OTLP's retryable answers (HTTP 503 +
 * Retry-After, gRPC UNAVAILABLE + RetryInfo) and counted, memory stays bounded, and afterwards good
 * data flows again, including one export larger than the whole budget.
 */

const MAX_IN_FLIGHT_BYTES = 16 * 1024 * 1024;
const HTTP_CLIENTS = 40;
const HTTP_EXPORTS_PER_CLIENT = 30;
const GRPC_CLIENTS = 6;
const GRPC_STREAMS_PER_CLIENT = 4;
const GRPC_EXPORTS_PER_STREAM = 15;
const RSS_LIMIT_BYTES = 1.5 * 1024 * 1024 * 1024;

const data = tempDataDir('svc-e2e-backpressure-');
let svc: RunningAllInOne;

before(async () => {
  svc = await startAllInOne({
    dataDir: data.dir,
    env: { SVC__INGEST__MAX_IN_FLIGHT_REQUESTS: '8', SVC__INGEST__MAX_IN_FLIGHT_BYTES: String(MAX_IN_FLIGHT_BYTES), SVC__WRITER__MAX_AGE_MS: '300' },
  });
});

after(async () => {
  await svc?.stop();
  data.cleanup();
});

async function metricsText(): Promise<string> {
  return (await fetch(`${svc.apiUrl}/metrics`)).text();
}

async function assertStored(sent: SentTrace): Promise<void> {
  const response = await pollJson(
    `${svc.apiUrl}/api/v1/traces/${sent.traceId}`,
    ({ status, body }) => status === 200 && ((body as { spans?: unknown[] }).spans?.length ?? 0) >= sent.spanIds.length,
  );
  assert.equal(response.status, 200, `trace ${sent.traceId} not stored`);
  const spans = (response.body as { spans: { span_id: string }[] }).spans;
  assert.deepEqual(spans.map((span) => span.span_id).sort(), [...sent.spanIds].sort());
}

test('a flood past the in-flight bounds is answered retry-later at once and counted, RSS stays bounded, then data flows again', async (t) => {
  const pid = svc.process.pid!;
  let maxRssBytes = rssBytes(pid);
  const sampler = setInterval(() => {
    try {
      maxRssBytes = Math.max(maxRssBytes, rssBytes(pid));
    } catch {
      // the process is gone; the exports below then fail and say so
    }
  }, 100);

  // ~1000 spans per export: each reserves some 3 MB decoded, so about five fit in the budget at once.
  const httpBodies = Array.from({ length: 4 }, (_, i) => buildTraceExport(`flood-http-${i}`, 100, 10).body);
  const grpcBody = buildTraceExport('flood-grpc', 100, 10).body;
  const http503: { retryAfter: string | undefined; status: ReturnType<typeof decodeRpcStatus> }[] = [];
  let httpAccepted = 0;
  const grpcRefused: ReturnType<typeof decodeRpcStatus>[] = [];
  const grpcOtherCodes: grpc.status[] = [];
  let grpcAccepted = 0;

  async function httpClient(index: number): Promise<void> {
    // One keep-alive connection per client, as an exporter holds.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let n = 0; n < HTTP_EXPORTS_PER_CLIENT; n++) {
        const answer = await postExport(agent, svc.otlpHttpPort, '/v1/traces', httpBodies[(index + n) % httpBodies.length]);
        if (answer.status === 200) httpAccepted += 1;
        else {
          assert.equal(answer.status, 503, `unexpected HTTP ${answer.status}: ${answer.body.toString()}`);
          http503.push({ retryAfter: answer.retryAfter, status: decodeRpcStatus(answer.body) });
        }
      }
    } finally {
      agent.destroy();
    }
  }

  async function grpcStream(client: grpc.Client): Promise<void> {
    for (let n = 0; n < GRPC_EXPORTS_PER_STREAM; n++) {
      const answer = await grpcExport(client, grpcBody);
      if (answer.code === grpc.status.OK) grpcAccepted += 1;
      else if (answer.statusDetails !== undefined) grpcRefused.push({ ...decodeRpcStatus(answer.statusDetails), code: answer.code });
      else grpcOtherCodes.push(answer.code);
    }
  }

  const grpcClients = Array.from({ length: GRPC_CLIENTS }, () => grpcClient(svc.grpcPort));
  const startedMs = Date.now();
  await Promise.all([
    ...Array.from({ length: HTTP_CLIENTS }, (_, index) => httpClient(index)),
    ...grpcClients.flatMap((client) => Array.from({ length: GRPC_STREAMS_PER_CLIENT }, () => grpcStream(client))),
  ]);
  const floodMs = Date.now() - startedMs;
  clearInterval(sampler);
  for (const client of grpcClients) client.close();

  t.diagnostic(
    `flood: ${floodMs} ms; HTTP ${httpAccepted} accepted, ${http503.length} refused; gRPC ${grpcAccepted} accepted, ${grpcRefused.length} refused; max RSS ${(maxRssBytes / 2 ** 20).toFixed(0)} MiB; export ${grpcBody.length} bytes`,
  );

  // HTTP: 503 with Retry-After and a google.rpc.Status body saying UNAVAILABLE.
  assert.ok(http503.length > 0, `no HTTP export was refused (${httpAccepted} accepted in ${floodMs} ms)`);
  assert.ok(httpAccepted > 0, 'the bound lets exports through during the flood');
  for (const refusal of http503) {
    assert.equal(refusal.retryAfter, '1');
    assert.equal(refusal.status.code, grpc.status.UNAVAILABLE);
    assert.match(refusal.status.message, /retry later/);
  }
  // gRPC: UNAVAILABLE (or RESOURCE_EXHAUSTED) carrying google.rpc.RetryInfo, which makes either retryable for OTLP.
  assert.deepEqual(grpcOtherCodes, [], 'every gRPC refusal carries status details');
  assert.ok(grpcRefused.length > 0, `no gRPC export was refused (${grpcAccepted} accepted)`);
  for (const refusal of grpcRefused) {
    assert.ok(refusal.code === grpc.status.UNAVAILABLE || refusal.code === grpc.status.RESOURCE_EXHAUSTED, `gRPC code ${refusal.code}`);
    assert.deepEqual(refusal.retryDelaysSecs, [1]);
  }

  // Every refusal is counted; HTTP ones exactly (each was read by its client).
  const metrics = await metricsText();
  assert.equal(metricValue(metrics, 'svc_ingest_backpressure_total', { transport: 'http' }), http503.length);
  assert.ok(metricValue(metrics, 'svc_ingest_backpressure_total', { transport: 'grpc' }) >= grpcRefused.length);
  assert.ok(
    metricValue(metrics, 'svc_ingest_backpressure_total', { reason: 'in_flight_bytes' }) +
      metricValue(metrics, 'svc_ingest_backpressure_total', { reason: 'in_flight_requests' }) >
      0,
  );

  assert.ok(maxRssBytes < RSS_LIMIT_BYTES, `RSS reached ${(maxRssBytes / 2 ** 20).toFixed(0)} MiB`);

  // Once the flood is over, nothing is left in flight and good data flows again, over both transports.
  const idle = await pollJson(`${svc.apiUrl}/metrics`, ({ body }) => metricValue(String(body), 'svc_ingest_in_flight_requests') === 0);
  assert.equal(metricValue(String(idle.body), 'svc_ingest_in_flight_requests'), 0);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const good = buildTraceExport('after-flood', 3, 4);
  assert.equal((await postExport(agent, svc.otlpHttpPort, '/v1/traces', good.body)).status, 200);
  const client = grpcClient(svc.grpcPort);
  const goodGrpc = buildTraceExport('after-flood-grpc', 2, 3);
  assert.equal((await grpcExport(client, goodGrpc.body)).code, grpc.status.OK);
  client.close();

  // One export far larger than the whole budget (some 40 MB decoded against 16 MiB) is taken when it runs alone.
  const large = buildTraceExport('after-flood-large', 40, 100, 200);
  assert.ok(large.body.length * 32 > MAX_IN_FLIGHT_BYTES * 2, `large export of ${large.body.length} bytes`);
  assert.equal((await postExport(agent, svc.otlpHttpPort, '/v1/traces', large.body)).status, 200);
  agent.destroy();

  for (const sent of [...good.traces, ...goodGrpc.traces, large.traces[0], large.traces[39]]) await assertStored(sent);
});
