import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import * as grpc from '@grpc/grpc-js';
import { startAllInOne, tempDataDir, type RunningAllInOne } from '../testing/all-in-one.js';
import { pollJson } from '../testing/http.js';
import { buildTraceExport, grpcClient, grpcExport, postExport, type SentTrace } from '../testing/otlp-load.js';

/**
 * SIGTERM while keep-alive clients export without pause: the process stops accepting at once on
 * every connection, answers the exports in flight, drains, and exits 0 within 10 s; after a restart
 * on the same data dir every acknowledged span is stored, none twice.
 */

const HTTP_CLIENTS = 6;
const GRPC_CLIENTS = 2;
const STOP_LIMIT_MS = 10_000;
/** A request begun this long after the signal must not be accepted (slack for a loaded machine to deliver the signal). */
const SIGNAL_SLACK_MS = 1_000;
/** Bounds each client's loop, should the process never stop. */
const MAX_EXPORTS_PER_CLIENT = 20_000;

const data = tempDataDir('svc-e2e-stop-');
let svc: RunningAllInOne | undefined;
after(async () => {
  await svc?.stop();
  data.cleanup();
});

test('SIGTERM under continuous keep-alive load: exit 0 within 10 s, every acknowledged span stored once after a restart', async (t) => {
  svc = await startAllInOne({ dataDir: data.dir, env: { SVC__WRITER__MAX_AGE_MS: '300' } });
  const running = svc;
  const acknowledged: SentTrace[] = [];
  let acknowledgedExports = 0;
  let signalledAtMs = Infinity;
  const acceptedLate: string[] = [];
  const refusedStatuses = new Map<string, number>();
  let exited = false;
  const exit = new Promise<{ code: number | null; atMs: number }>((resolve) => running.process.once('exit', (code) => resolve({ code, atMs: Date.now() })));
  void exit.then(() => (exited = true));

  const note = (what: string) => refusedStatuses.set(what, (refusedStatuses.get(what) ?? 0) + 1);

  async function httpClient(index: number): Promise<void> {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      for (let n = 0; n < MAX_EXPORTS_PER_CLIENT && !exited; n++) {
        const built = buildTraceExport(`stop-http-${index}`, 2, 5);
        const startedMs = Date.now();
        try {
          const answer = await postExport(agent, running.otlpHttpPort, '/v1/traces', built.body);
          if (answer.status === 200) {
            acknowledged.push(...built.traces);
            acknowledgedExports += 1;
            if (startedMs > signalledAtMs + SIGNAL_SLACK_MS) acceptedLate.push(`http ${startedMs - signalledAtMs} ms after the signal`);
          } else note(`http ${answer.status}${answer.connection === 'close' ? ' close' : ''}`);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code ?? 'error';
          note(`http ${code}`);
          // The listener is gone: this client is done.
          if (code === 'ECONNREFUSED') return;
        }
      }
    } finally {
      agent.destroy();
    }
  }

  async function grpcLoad(index: number): Promise<void> {
    const client = grpcClient(running.grpcPort);
    try {
      for (let n = 0; n < MAX_EXPORTS_PER_CLIENT && !exited; n++) {
        const built = buildTraceExport(`stop-grpc-${index}`, 2, 5);
        const startedMs = Date.now();
        const answer = await grpcExport(client, built.body, 5_000);
        if (answer.code === grpc.status.OK) {
          acknowledged.push(...built.traces);
          acknowledgedExports += 1;
          if (startedMs > signalledAtMs + SIGNAL_SLACK_MS) acceptedLate.push(`grpc ${startedMs - signalledAtMs} ms after the signal`);
        } else {
          note(`grpc ${grpc.status[answer.code]}`);
          // Without a server the channel fails fast; pause so the loop does not spin until exit.
          if (answer.code === grpc.status.UNAVAILABLE && answer.statusDetails === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    } finally {
      client.close();
    }
  }

  const clients = [...Array.from({ length: HTTP_CLIENTS }, (_, i) => httpClient(i)), ...Array.from({ length: GRPC_CLIENTS }, (_, i) => grpcLoad(i))];

  // Signal once the load is well under way.
  const loadDeadlineMs = Date.now() + 60_000;
  while (acknowledgedExports < 100 && Date.now() < loadDeadlineMs && !exited) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(acknowledgedExports >= 100, `only ${acknowledgedExports} exports acknowledged in 60 s`);
  signalledAtMs = Date.now();
  running.process.kill('SIGTERM');
  let giveUp: NodeJS.Timeout | undefined;
  const stopped = await Promise.race([exit, new Promise<undefined>((resolve) => (giveUp = setTimeout(() => resolve(undefined), 30_000)))]);
  clearTimeout(giveUp);
  await Promise.all(clients);
  assert.ok(stopped !== undefined, 'the process did not exit within 30 s of SIGTERM');
  const stopMs = stopped.atMs - signalledAtMs;
  t.diagnostic(
    `exit ${stopped.code} ${stopMs} ms after SIGTERM; ${acknowledgedExports} exports acknowledged; other answers: ${JSON.stringify(Object.fromEntries(refusedStatuses))}`,
  );
  assert.equal(stopped.code, 0);
  assert.ok(stopMs < STOP_LIMIT_MS, `exit took ${stopMs} ms after SIGTERM`);
  assert.deepEqual(acceptedLate, [], 'exports begun after the stop began were accepted');

  svc = await startAllInOne({ dataDir: data.dir, env: { SVC__WRITER__MAX_AGE_MS: '300' } });
  const restarted = svc;
  const missing: string[] = [];
  // A few readers at once: there are a few thousand traces to check.
  let next = 0;
  async function reader(): Promise<void> {
    while (next < acknowledged.length) {
      const sent = acknowledged[next++];
      const response = await pollJson(
        `${restarted.apiUrl}/api/v1/traces/${sent.traceId}`,
        ({ status, body }) => status === 200 && ((body as { spans?: unknown[] }).spans?.length ?? 0) >= sent.spanIds.length,
        10_000,
      );
      if (response.status !== 200) {
        missing.push(sent.traceId);
        continue;
      }
      const spans = (response.body as { spans: { span_id: string }[] }).spans;
      assert.deepEqual(spans.map((span) => span.span_id).sort(), [...sent.spanIds].sort(), `trace ${sent.traceId}: every acknowledged span once`);
    }
  }
  await Promise.all(Array.from({ length: 4 }, () => reader()));
  assert.deepEqual(missing, [], `${missing.length} of ${acknowledged.length} acknowledged traces missing after the restart`);
});
