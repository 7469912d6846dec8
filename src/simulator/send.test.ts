import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeLogs } from '../otlp/decode-logs.js';
import { decodeTraces } from '../otlp/decode-traces.js';
import { createSimulator } from './simulate.js';
import { createOtlpSender, SendError } from './send.js';

const T0 = Date.UTC(2026, 10, 27, 10);

/** A receiver on loopback that answers through `answer` and records what it got. */
async function receiver(answer: (path: string, index: number, response: ServerResponse) => void) {
  const bodies: { path: string; body: Buffer; atMs: number }[] = [];
  const inFlight = new Map<string, number>();
  let maxInFlight = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const path = request.url ?? '';
    inFlight.set(path, (inFlight.get(path) ?? 0) + 1);
    maxInFlight = Math.max(maxInFlight, inFlight.get(path) ?? 0);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      bodies.push({ path, body: Buffer.concat(chunks), atMs: Date.now() });
      // Answer a little later, so that a second export in flight would overlap this one.
      setTimeout(() => {
        inFlight.set(path, (inFlight.get(path) ?? 1) - 1);
        answer(path, bodies.length - 1, response);
      }, 5);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bodies,
    maxInFlight: () => maxInFlight,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

test('the sender posts every row as OTLP protobuf in bounded exports, one in flight per signal', async () => {
  const server = await receiver((_path, _index, response) => response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
  try {
    const batch = createSimulator({ seed: 1, tracesPerSec: 10 }).generate(T0, T0 + 30_000);
    const sender = createOtlpSender({ url: `${server.url}/`, maxExportBytes: 64 * 1024 });
    await Promise.all([sender.send(batch), sender.send({ spans: [], logs: batch.logs.slice(0, 10) })]);
    const traces = server.bodies.filter((one) => one.path === '/v1/traces');
    const logs = server.bodies.filter((one) => one.path === '/v1/logs');
    assert.ok(traces.length > 5 && logs.length > 3, `${traces.length} trace exports, ${logs.length} log exports`);
    assert.ok(server.bodies.every((one) => one.body.length <= 64 * 1024));
    assert.equal(server.maxInFlight(), 1);
    const spanIds = traces.flatMap((one) => decodeTraces(one.body).map((span) => span.spanId));
    assert.deepEqual(spanIds.sort(), batch.spans.map((span) => span.spanId).sort());
    assert.equal(logs.flatMap((one) => decodeLogs(one.body)).length, batch.logs.length + 10);
    // A trace's spans go in one export (the batch holds them together).
    const exportOf = new Map<string, number>();
    traces.forEach((one, index) => {
      for (const span of decodeTraces(one.body)) {
        assert.ok((exportOf.get(span.traceId) ?? index) === index, 'a trace split across exports');
        exportOf.set(span.traceId, index);
      }
    });
    assert.deepEqual(sender.totals(), {
      spans: batch.spans.length,
      logs: batch.logs.length + 10,
      exports: server.bodies.length,
      bytes: server.bodies.reduce((sum, one) => sum + one.body.length, 0),
      retries: 0,
    });
  } finally {
    await server.close();
  }
});

test('"retry later" is retried after its Retry-After; a refusal of another kind fails the send without a retry', async () => {
  const server = await receiver((path, index, response) => {
    if (path === '/v1/traces' && index === 0) response.writeHead(503, { 'retry-after': '1' }).end();
    else if (path === '/v1/traces' && index === 1) response.writeHead(429).end();
    else if (path === '/v1/logs') response.writeHead(400).end('bad');
    else response.writeHead(200).end();
  });
  try {
    const batch = createSimulator({ seed: 2, tracesPerSec: 2 }).generate(T0, T0 + 5_000);
    const retries: string[] = [];
    const sender = createOtlpSender({ url: server.url, onRetry: (signal, reason, waitMs) => retries.push(`${signal} ${reason} ${waitMs}`) });
    await sender.send({ spans: batch.spans, logs: [] });
    // Without Retry-After the pause doubles from 250 ms with each attempt.
    assert.deepEqual(retries, ['traces answered 503 1000', 'traces answered 429 500']);
    assert.ok(server.bodies[1]!.atMs - server.bodies[0]!.atMs >= 990, 'waited for Retry-After');
    assert.equal(sender.totals().retries, 2);
    assert.equal(sender.totals().spans, batch.spans.length);
    await assert.rejects(
      sender.send({ spans: [], logs: batch.logs }),
      (error: unknown) => error instanceof SendError && /\/v1\/logs answered 400/.test(error.message),
    );
    assert.equal(sender.totals().retries, 2);
  } finally {
    await server.close();
  }
});

test('a receiver that cannot be reached is retried, then given up with the reason', async () => {
  const server = await receiver(() => undefined);
  const url = server.url;
  await server.close();
  const sender = createOtlpSender({ url, giveUpAfterMs: 800 });
  const batch = createSimulator({ seed: 3, tracesPerSec: 2 }).generate(T0, T0 + 2_000);
  await assert.rejects(
    sender.send(batch),
    (error: unknown) => error instanceof SendError && /ECONNREFUSED/.test(error.message) && /gave up after/.test(error.message),
  );
  assert.ok(sender.totals().retries >= 1);
  assert.equal(sender.totals().exports, 0);
});

test('stopRetrying ends an export waiting for its retry at once', async () => {
  const server = await receiver((_path, _index, response) => response.writeHead(503, { 'retry-after': '30' }).end());
  try {
    const sender = createOtlpSender({ url: server.url, onRetry: () => sender.stopRetrying() });
    const batch = createSimulator({ seed: 4, tracesPerSec: 2 }).generate(T0, T0 + 2_000);
    const startedMs = Date.now();
    await assert.rejects(
      sender.send({ spans: batch.spans, logs: [] }),
      (error: unknown) => error instanceof SendError && /answered 503; not retried \(stopping\)/.test(error.message),
    );
    assert.ok(Date.now() - startedMs < 20_000, 'did not wait for the 30 s Retry-After');
    assert.equal(server.bodies.length, 1);
  } finally {
    await server.close();
  }
});
