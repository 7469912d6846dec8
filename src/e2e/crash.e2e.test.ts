import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { open, readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { LogRow } from '../model/signals.js';
import { encodeLogsData } from '../otlp/encode-logs.js';
import { startAllInOne, tempDataDir, type RunningAllInOne } from '../testing/all-in-one.js';
import { metricValue, pollJson } from '../testing/http.js';
import { buildTraceExport } from '../testing/otlp-load.js';

/**
 * kill -9 while clients export: every export that was answered with success must be stored after a
 * restart on the same data dir, once and only once, and a torn record left at the end of the
 * embedded bus's log is cut on the way up.
 */

/** Where a bus segment's frames end: each is a u32 body length, a u32 checksum and the body; a zero length (zeroed space) or the file's end follows. */
function framesEndOf(bytes: Buffer): number {
  let at = 0;
  while (at + 8 <= bytes.length && bytes.readUInt32LE(at) !== 0) at += 8 + bytes.readUInt32LE(at);
  return Math.min(at, bytes.length);
}

const TRACES_PER_EXPORT = 10;
const SPANS_PER_TRACE = 4;
const CLIENTS = 6;

interface Sent {
  traceId: string;
  spanIds: string[];
  logBodies: string[];
}

/** A trace export from the shared load builder, and one log per trace attached to its root span. */
function buildExport(client: number, sequence: number): { traces: Sent[]; spansBody: Buffer; logs: LogRow[] } {
  const built = buildTraceExport('crash-test', TRACES_PER_EXPORT, SPANS_PER_TRACE);
  const nowNs = BigInt(Date.now()) * 1_000_000n;
  const logs: LogRow[] = built.traces.map(({ traceId, spanIds }, t) => ({
    logId: '0',
    tsNs: nowNs,
    observedTsNs: nowNs,
    traceId,
    spanId: spanIds[0],
    serviceName: 'crash-test',
    severityNumber: 9,
    severityText: 'INFO',
    body: `client ${client} export ${sequence} trace ${t}`,
    attrs: [],
    resource: [['service.name', 'crash-test']],
    scopeName: 'crash',
    scopeVersion: '',
  }));
  const traces = built.traces.map((trace, t) => ({ ...trace, logBodies: [logs[t].body] }));
  return { traces, spansBody: built.body, logs };
}

async function post(port: number, path: string, body: Buffer): Promise<number> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/x-protobuf' } });
  await response.arrayBuffer();
  return response.status;
}

const data = tempDataDir('svc-e2e-crash-');
let svc: RunningAllInOne | undefined;
after(async () => {
  await svc?.stop();
  data.cleanup();
});

test('kill -9 under load: every acknowledged span and log is stored after a restart, none twice; a torn log tail is cut; the lag table reads the embedded bus', async () => {
  svc = await startAllInOne({ dataDir: data.dir, env: { SVC__WRITER__MAX_AGE_MS: '300' } });
  const port = svc.otlpHttpPort;
  const acknowledged: Sent[] = [];
  let acknowledgedExports = 0;
  let killed = false;

  // Each client sends a trace export, then the same traces' logs; a trace counts as acknowledged
  // with its spans once the first answer is 200, and its logs once the second is.
  async function client(index: number): Promise<void> {
    for (let sequence = 0; !killed && sequence < 10_000; sequence++) {
      const built = buildExport(index, sequence);
      try {
        if ((await post(port, '/v1/traces', built.spansBody)) !== 200) continue;
        const logsAcked = (await post(port, '/v1/logs', encodeLogsData(built.logs))) === 200;
        for (const trace of built.traces) acknowledged.push(logsAcked ? trace : { ...trace, logBodies: [] });
        acknowledgedExports += 1;
      } catch {
        return; // the process is gone
      }
    }
  }
  const clients = Array.from({ length: CLIENTS }, (_, index) => client(index));

  // Kill while exports are in flight, once a good number was acknowledged.
  const deadlineMs = Date.now() + 60_000;
  while (acknowledgedExports < 60 && Date.now() < deadlineMs) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(acknowledgedExports >= 60, `only ${acknowledgedExports} exports acknowledged in 60 s`);
  svc.process.kill('SIGKILL');
  killed = true;
  await svc.stop();
  await Promise.all(clients);

  // A crash in the middle of a write leaves half a frame after the last whole one of the newest
  // segment (at the file's end, or in the zeroed space that follows the frames).
  const busDir = join(data.dir, 'bus');
  const segments = (await readdir(busDir)).filter((name) => name.endsWith('.seg')).sort();
  assert.ok(segments.length > 0, 'the embedded bus keeps its log under the data dir');
  const newest = join(busDir, segments[segments.length - 1]);
  const framesEnd = framesEndOf(await readFile(newest));
  const torn = Buffer.alloc(40, 7);
  torn.writeUInt32LE(4000, 0);
  const handle = await open(newest, 'r+');
  await handle.write(torn, 0, torn.length, framesEnd);
  await handle.close();
  const sizeWithTear = (await stat(newest)).size;

  svc = await startAllInOne({ dataDir: data.dir, env: { SVC__WRITER__MAX_AGE_MS: '300' } });
  const cut = svc.logs.find((entry) => String(entry.msg).startsWith('embedded bus: cut a torn'));
  assert.ok(cut, 'the restart reports the torn tail it cut');
  assert.equal(cut.cutBytes, sizeWithTear - framesEnd);

  for (const sent of acknowledged) {
    const response = await pollJson(`${svc.apiUrl}/api/v1/traces/${sent.traceId}`, ({ status, body }) => {
      const trace = body as { spans?: unknown[]; logs?: unknown[] };
      return status === 200 && (trace.spans?.length ?? 0) >= sent.spanIds.length && (trace.logs?.length ?? 0) >= sent.logBodies.length;
    });
    assert.equal(response.status, 200, `acknowledged trace ${sent.traceId} is missing after the crash`);
    const trace = response.body as { spans: { span_id: string }[]; logs: { body: string }[] };
    assert.deepEqual(trace.spans.map((span) => span.span_id).sort(), [...sent.spanIds].sort(), `trace ${sent.traceId}: every span once`);
    for (const body of sent.logBodies) assert.equal(trace.logs.filter((log) => log.body === body).length, 1, `trace ${sent.traceId}: log "${body}" once`);
  }

  // The lag table reads the embedded bus: every consumer group with its topic, the writer caught up.
  type LagRow = { group: string; topic: string; committed: number; end: number; lag: number };
  const lag = await pollJson(`${svc.apiUrl}/api/v1/pipeline/lag`, ({ status, body }) => {
    const rows = body as LagRow[];
    return status === 200 && rows.some((row) => row.group === 'svc-writer' && row.end > 0 && row.lag === 0);
  });
  assert.equal(lag.status, 200);
  const rows = lag.body as LagRow[];
  assert.deepEqual(rows.map((row) => `${row.group} ${row.topic}`).sort(), [
    'svc-assembler svc.signals',
    'svc-logminer svc.logs',
    'svc-notifier svc.alerts',
    'svc-writer svc.signals',
  ]);
  const writerRow = rows.find((row) => row.group === 'svc-writer')!;
  assert.ok(writerRow.end >= acknowledged.length, `the signals topic holds at least one record per acknowledged trace (${writerRow.end})`);
  assert.equal(writerRow.committed, writerRow.end);
  const metrics = await (await fetch(`${svc.apiUrl}/metrics`)).text();
  assert.ok(metricValue(metrics, 'svc_bus_log_bytes') > 0, 'the bus log size is exposed');
  assert.equal(metricValue(metrics, 'svc_bus_log_max_bytes'), 1024 * 1024 * 1024);
  assert.equal(await svc.stop(), 0);
  svc = undefined;
});
