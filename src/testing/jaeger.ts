/**
 * Real Jaeger v2 all-in-one for the Jaeger query API proof and its benchmark: started from the
 * binary scripts/jaeger/fetch.sh builds, on free loopback ports, with in-memory or Badger storage,
 * OTLP/HTTP in and the query HTTP API out. Test support: never shipped.
 */

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RunningJaeger {
  /** The query HTTP API's base URL (`/api/...` below it). */
  queryUrl: string;
  /** OTLP/HTTP traces endpoint. */
  otlpTracesUrl: string;
  /** OTLP/gRPC port (0 unless asked for). */
  otlpGrpcPort: number;
  /** The Collector's own Prometheus metrics (undefined unless asked for): otelcol_exporter_sent_spans_total counts spans stored. */
  metricsUrl?: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

export interface JaegerOptions {
  /** Also receive OTLP/gRPC (telemetrygen's protocol). */
  otlpGrpc?: boolean;
  /** Serve the Collector's own metrics (spans received, stored, refused). */
  metrics?: boolean;
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

/** Polls `attempt` until it yields a value (errors count as not yet); throws after `timeoutMs`. */
export async function waitFor<T>(what: string, attempt: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const value = await attempt();
      if (value !== undefined) return value;
    } catch {
      // not there yet
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Starts Jaeger and resolves once its query API answers. */
export async function startJaeger(binary: string, storage: 'memory' | 'badger', options: JaegerOptions = {}): Promise<RunningJaeger> {
  const [queryPort, grpcPort, otlpPort] = [await freePort(), await freePort(), await freePort()];
  const otlpGrpcPort = options.otlpGrpc === true ? await freePort() : 0;
  const metricsPort = options.metrics === true ? await freePort() : 0;
  const metrics =
    metricsPort === 0
      ? `      level: none\n`
      : `      level: basic\n      readers:\n        - pull:\n            exporter:\n              prometheus:\n                host: 127.0.0.1\n                port: ${metricsPort}\n`;
  const grpcReceiver = otlpGrpcPort === 0 ? '' : `      grpc:\n        endpoint: 127.0.0.1:${otlpGrpcPort}\n`;
  const dir = mkdtempSync(join(tmpdir(), 'svc-jaeger-'));
  const backend =
    storage === 'memory'
      ? `        memory:\n          max_traces: 100000\n`
      : `        badger:\n          directories:\n            keys: ${join(dir, 'keys')}\n            values: ${join(dir, 'values')}\n          ephemeral: false\n`;
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
${metrics}    logs:
      level: warn
extensions:
  jaeger_query:
    storage:
      traces: store
    enable_tracing: false
    http:
      endpoint: 127.0.0.1:${queryPort}
    grpc:
      endpoint: 127.0.0.1:${grpcPort}
  jaeger_storage:
    backends:
      store:
${backend}receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:${otlpPort}
${grpcReceiver}processors:
  batch:
exporters:
  jaeger_storage_exporter:
    trace_storage: store
`,
  );
  // Jaeger logs its handlers' 500s with stack traces; only start-up failures matter here.
  const child = spawn(binary, ['--config', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderrTail = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString('utf8')).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const queryUrl = `http://127.0.0.1:${queryPort}`;
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor('Jaeger to answer', async () => {
      if (child.exitCode !== null) throw new Error(`Jaeger exited: ${stderrTail}`);
      return (await fetch(`${queryUrl}/api/services`)).ok ? true : undefined;
    });
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${stderrTail}`);
  }
  return {
    queryUrl,
    otlpTracesUrl: `http://127.0.0.1:${otlpPort}/v1/traces`,
    otlpGrpcPort,
    metricsUrl: metricsPort === 0 ? undefined : `http://127.0.0.1:${metricsPort}/metrics`,
    process: child,
    stop,
  };
}
