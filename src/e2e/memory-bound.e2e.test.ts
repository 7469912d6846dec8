import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import * as grpc from '@grpc/grpc-js';
import { startAllInOne, tempDataDir, type RunningAllInOne } from '../testing/all-in-one.js';
import { metricValue, pollJson } from '../testing/http.js';
import { buildTraceExport, grpcClient, grpcExport, postExport } from '../testing/otlp-load.js';
import { decodeRpcStatus } from '../testing/rpc-status.js';

/**
 * ingest.max_memory_bytes at its smallest (64 MiB, below what a running svc holds): new exports
 * are answered retry-later with reason `memory` on both transports and counted, while an exporter
 * that honours Retry-After still gets its export in (one a second is admitted) and it is stored.
 */

const MAX_MEMORY_BYTES = 64 * 1024 * 1024;
const MEMORY_MESSAGE = 'svc is short of memory, retry later';

const data = tempDataDir('svc-e2e-memory-bound-');
let svc: RunningAllInOne;

before(async () => {
  svc = await startAllInOne({ dataDir: data.dir, env: { SVC__INGEST__MAX_MEMORY_BYTES: String(MAX_MEMORY_BYTES), SVC__WRITER__MAX_AGE_MS: '300' } });
});

after(async () => {
  await svc?.stop();
  data.cleanup();
});

function anonBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^RssAnon:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0) * 1024;
}

test(
  'above ingest.max_memory_bytes exports are refused retryably for memory, yet an exporter honouring Retry-After gets through',
  { skip: process.platform !== 'linux' },
  async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sent = buildTraceExport('memory-bound', 10, 5);
    let httpMemoryRefusals = 0;
    try {
      // An exporter: the same export until it is accepted, waiting what each refusal asks.
      let accepted = false;
      for (let attempt = 0; attempt < 20 && !accepted; attempt++) {
        const answer = await postExport(agent, svc.otlpHttpPort, '/v1/traces', sent.body);
        if (answer.status === 200) {
          accepted = true;
          break;
        }
        assert.equal(answer.status, 503, `unexpected HTTP ${answer.status}: ${answer.body.toString()}`);
        assert.equal(answer.retryAfter, '1');
        assert.equal(decodeRpcStatus(answer.body).message, MEMORY_MESSAGE);
        httpMemoryRefusals += 1;
        await new Promise((resolve) => setTimeout(resolve, Number(answer.retryAfter) * 1000));
      }
      assert.ok(accepted, 'an exporter honouring Retry-After got its export in');

      const anon = anonBytes(svc.process.pid!);
      assert.ok(anon > MAX_MEMORY_BYTES, `svc holds ${anon} anonymous bytes, above the bound`);
      // Back-to-back exports: at most one a second is admitted while memory is high.
      const burst: number[] = [];
      for (let n = 0; n < 10; n++) {
        const answer = await postExport(agent, svc.otlpHttpPort, '/v1/traces', sent.body);
        burst.push(answer.status);
        if (answer.status === 503) {
          assert.equal(decodeRpcStatus(answer.body).message, MEMORY_MESSAGE);
          httpMemoryRefusals += 1;
        }
      }
      assert.ok(burst.filter((status) => status === 503).length >= 5, `back-to-back exports refused for memory: ${burst.join(' ')}`);
    } finally {
      agent.destroy();
    }

    const client = grpcClient(svc.grpcPort);
    const grpcAnswers: grpc.status[] = [];
    try {
      for (let n = 0; n < 10; n++) {
        const answer = await grpcExport(client, sent.body);
        grpcAnswers.push(answer.code);
        if (answer.code === grpc.status.OK) continue;
        assert.equal(answer.code, grpc.status.UNAVAILABLE);
        const status = decodeRpcStatus(answer.statusDetails ?? Buffer.alloc(0));
        assert.equal(status.message, MEMORY_MESSAGE);
        assert.deepEqual(status.retryDelaysSecs, [1]);
      }
    } finally {
      client.close();
    }
    assert.ok(grpcAnswers.filter((code) => code === grpc.status.UNAVAILABLE).length >= 5, `gRPC answers ${grpcAnswers.join(' ')}`);

    const metrics = await (await fetch(`${svc.apiUrl}/metrics`)).text();
    assert.equal(metricValue(metrics, 'svc_ingest_backpressure_total', { transport: 'http', reason: 'memory' }), httpMemoryRefusals);
    assert.equal(
      metricValue(metrics, 'svc_ingest_backpressure_total', { transport: 'grpc', reason: 'memory' }),
      grpcAnswers.filter((code) => code === grpc.status.UNAVAILABLE).length,
    );

    const trace = sent.traces[0]!;
    const stored = await pollJson(
      `${svc.apiUrl}/api/v1/traces/${trace.traceId}`,
      ({ status, body }) => status === 200 && ((body as { spans?: unknown[] }).spans?.length ?? 0) >= trace.spanIds.length,
    );
    assert.equal(stored.status, 200, 'the admitted export was stored');
  },
);
