/**
 * Records real Jaeger's answers for the Jaeger query API proof: starts the Jaeger v2 all-in-one
 * binary given as the first argument with in-memory storage on loopback ports, feeds it the
 * proof's OTLP traces, asks it every case and writes the answers as the fixture that
 * src/api/jaeger/jaeger-fixtures.test.ts holds svc to. Run through scripts/jaeger/record.sh.
 */

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCases, buildExports } from '../../src/api/jaeger/jaeger-dataset.test-support.js';

const [binary, output, version] = process.argv.slice(2);
if (binary === undefined || output === undefined) {
  console.error('usage: record-fixtures.js <jaeger binary> <fixture.json> [jaeger version]');
  process.exit(2);
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function waitFor<T>(what: string, attempt: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const value = await attempt();
      if (value !== undefined) return value;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const [queryPort, grpcPort, otlpPort] = [await freePort(), await freePort(), await freePort()];
const dir = mkdtempSync(join(tmpdir(), 'svc-jaeger-record-'));
const config = join(dir, 'config.yaml');
writeFileSync(
  config,
  `service:
  extensions: [jaeger_storage, jaeger_query]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
extensions:
  jaeger_query:
    storage:
      traces: memstore
    enable_tracing: false
    http:
      endpoint: 127.0.0.1:${queryPort}
    grpc:
      endpoint: 127.0.0.1:${grpcPort}
  jaeger_storage:
    backends:
      memstore:
        memory:
          max_traces: 100000
receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:${otlpPort}
processors:
  batch:
exporters:
  jaeger_storage_exporter:
    trace_storage: memstore
`,
);

const child = spawn(binary, ['--config', config], { stdio: ['ignore', 'inherit', 'inherit'] });
const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
const queryUrl = `http://127.0.0.1:${queryPort}`;
try {
  await waitFor('Jaeger to answer', async () => ((await fetch(`${queryUrl}/api/services`)).ok ? true : undefined));
  // A base ten minutes back, off the millisecond grid so that truncation to µs shows.
  const baseNs = BigInt(Date.now() - 600_000) * 1_000_000n + 123_456n;
  for (const exported of buildExports(baseNs)) {
    const response = await fetch(`http://127.0.0.1:${otlpPort}/v1/traces`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: exported.body });
    if (!response.ok) throw new Error(`Jaeger refused the export of ${exported.traceId}: ${response.status} ${await response.text()}`);
  }
  for (const exported of buildExports(baseNs)) {
    await waitFor(`trace ${exported.traceId} in Jaeger`, async () => {
      const response = await fetch(`${queryUrl}/api/traces/${exported.traceId}`);
      if (!response.ok) return undefined;
      const body = (await response.json()) as { data: { spans: unknown[] }[] };
      return body.data[0]?.spans.length === exported.spanCount ? true : undefined;
    });
  }
  const answers = [];
  for (const { name, url } of buildCases(baseNs)) {
    const response = await fetch(`${queryUrl}${url}`);
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    answers.push({ name, url, status: response.status, body });
  }
  // One answer per line: compact, and a re-recording's diff shows which answers changed.
  writeFileSync(output, `{"jaeger":${JSON.stringify(version ?? 'unknown')},"baseNs":"${baseNs}","answers":[\n${answers.map((answer) => JSON.stringify(answer)).join(',\n')}\n]}\n`);
  console.error(`recorded ${answers.length} answers into ${output}`);
} finally {
  child.kill('SIGTERM');
  await exited;
  rmSync(dir, { recursive: true, force: true });
}
