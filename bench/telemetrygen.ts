/**
 * All-in-one against the real OpenTelemetry load generator, `telemetrygen` (OTLP/gRPC, the Go SDK's
 * defaults: one export in flight per exporter), on a fresh data dir with default settings:
 *   - one exporter (`--workers 4 --rate 0 --batch-size 512`): spans stored per second;
 *   - eight exporters offering 40k spans/s in all: offered against stored;
 *   - an export of 10 spans: latency median and p99, on an idle server and under the one-exporter load.
 * Stored means counted by the writer (svc_writer_rows_written_total), waited for after the load.
 *   SVC_BENCH_TELEMETRYGEN_SECS  seconds per load (default 30)
 *   SVC_TELEMETRYGEN             path of the binary (default: the cache of scripts/telemetrygen/fetch.sh)
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import os from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { startAllInOne, tempDataDir, type RunningAllInOne } from '../src/testing/all-in-one.js';
import { metricValue } from '../src/testing/http.js';
import { buildTraceExport, grpcClient, grpcExport, rssBytes } from '../src/testing/otlp-load.js';

const VERSION = 'v0.161.0';

export function telemetrygenPath(): string | undefined {
  const path =
    process.env.SVC_TELEMETRYGEN ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'svc-telemetrygen', VERSION, 'bin', 'telemetrygen');
  return existsSync(path) ? path : undefined;
}

const loadAverage = () =>
  os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');

async function svcCpuSecs(svc: RunningAllInOne): Promise<number> {
  return metricValue(await (await fetch(`${svc.apiUrl}/metrics`)).text(), 'process_cpu_seconds_total');
}

async function acceptedSpans(svc: RunningAllInOne): Promise<number> {
  return metricValue(await (await fetch(`${svc.apiUrl}/metrics`)).text(), 'svc_ingest_accepted_items_total', { signal: 'traces' });
}

async function storedSpans(svc: RunningAllInOne): Promise<number> {
  const text = await (await fetch(`${svc.apiUrl}/metrics`)).text();
  return metricValue(text, 'svc_writer_rows_written_total', { table: 'spans' });
}

/** Waits until the stored count stops rising for 3 s (the writer has caught up), and returns it. */
async function settledStoredSpans(svc: RunningAllInOne): Promise<number> {
  let last = await storedSpans(svc);
  let lastChangeMs = Date.now();
  while (Date.now() - lastChangeMs < 3000) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = await storedSpans(svc);
    if (now !== last) lastChangeMs = Date.now();
    last = now;
  }
  return last;
}

interface GeneratorRun {
  exitCode: number | null;
  errors: number;
  /** CPU seconds the generator used (sampled from /proc until it exits). */
  cpuSecs: number;
  output: string;
}

/** User + system CPU seconds of a process, from /proc (Linux; clock ticks of 1/100 s). */
export function cpuSecondsOf(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** Runs telemetrygen traces with `args` against the gRPC port; counts the export errors it logs. */
export function runTelemetrygen(binary: string, grpcPort: number, args: string[]): Promise<GeneratorRun> {
  return new Promise((resolve) => {
    const child = spawn(binary, ['traces', '--otlp-insecure', '--otlp-endpoint', `127.0.0.1:${grpcPort}`, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-200_000);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    let cpuSecs = 0;
    const sampler = setInterval(() => (cpuSecs = cpuSecondsOf(child.pid!) ?? cpuSecs), 200);
    child.on('exit', (exitCode) => {
      clearInterval(sampler);
      // Its own connection-closing lines are logged at INFO with "rpc error"; only ERROR lines count.
      const errors = output.split('\n').filter((line) => /\tERROR\t|"level":"error"/.test(line)).length;
      resolve({ exitCode, errors, cpuSecs, output });
    });
  });
}

/** Spans a traces run generated, from its "traces generated" lines (a root and one child per trace). */
export function generatedSpans(output: string): number {
  let traces = 0;
  for (const match of output.matchAll(/traces generated\t\{"worker": \d+, "traces": (\d+)\}/g)) traces += Number(match[1]);
  return traces * 2;
}

/** Peak RSS of the svc process while `work` runs. */
async function withPeakRss<T>(svc: RunningAllInOne, work: Promise<T>): Promise<{ result: T; peakRssMiB: number }> {
  let peak = 0;
  const sample = () => {
    try {
      peak = Math.max(peak, rssBytes(svc.process.pid!));
    } catch {
      // the process is gone; the caller sees it
    }
  };
  const timer = setInterval(sample, 250);
  try {
    const result = await work;
    sample();
    return { result, peakRssMiB: peak / 2 ** 20 };
  } finally {
    clearInterval(timer);
  }
}

/** Sequential exports of 10 spans over gRPC for `seconds`; median and p99 answer time in ms. */
async function tenSpanLatency(grpcPort: number, seconds: number): Promise<{ medianMs: number; p99Ms: number; count: number }> {
  const client = grpcClient(grpcPort);
  const samplesMs: number[] = [];
  const deadlineMs = Date.now() + seconds * 1000;
  try {
    while (Date.now() < deadlineMs) {
      const { body } = buildTraceExport('latency-probe', 1, 10);
      const startedNs = process.hrtime.bigint();
      const answer = await grpcExport(client, body);
      if (answer.code === grpc.status.OK) samplesMs.push(Number(process.hrtime.bigint() - startedNs) / 1e6);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  } finally {
    client.close();
  }
  samplesMs.sort((a, b) => a - b);
  const at = (q: number) => samplesMs[Math.min(samplesMs.length - 1, Math.floor(q * samplesMs.length))] ?? NaN;
  return { medianMs: at(0.5), p99Ms: at(0.99), count: samplesMs.length };
}

export async function main(): Promise<void> {
  const binary = telemetrygenPath();
  if (binary === undefined) {
    console.log(`telemetrygen: not found; build it with \`bash scripts/telemetrygen/fetch.sh\` (Go needed), or set SVC_TELEMETRYGEN. Skipped.`);
    return;
  }
  const seconds = Number(process.env.SVC_BENCH_TELEMETRYGEN_SECS ?? 30);
  const data = tempDataDir('svc-bench-telemetrygen-');
  const svc = await startAllInOne({ dataDir: data.dir });
  try {
    const idle = await tenSpanLatency(svc.grpcPort, 5);
    console.log(
      `telemetrygen: 10-span export, idle server: median ${idle.medianMs.toFixed(1)} ms, p99 ${idle.p99Ms.toFixed(1)} ms (${idle.count} exports; load average ${loadAverage()})`,
    );

    // One exporter, as fast as it is answered; the latency probe runs beside it.
    const before = await storedSpans(svc);
    const cpuBefore = await svcCpuSecs(svc);
    const startedMs = Date.now();
    const generator = runTelemetrygen(binary, svc.grpcPort, ['--workers', '4', '--rate', '0', '--batch-size', '512', '--duration', `${seconds}s`]);
    const probe = tenSpanLatency(svc.grpcPort, Math.max(1, seconds - 2));
    const { result: run, peakRssMiB } = await withPeakRss(svc, generator);
    const loadSecs = (Date.now() - startedMs) / 1000;
    const loaded = await probe;
    const svcCpu = (await svcCpuSecs(svc)) - cpuBefore;
    const stored = (await settledStoredSpans(svc)) - before - loaded.count * 10;
    console.log(
      `telemetrygen: one exporter (--workers 4 --rate 0 --batch-size 512, ${seconds} s): ${Math.round(stored / loadSecs)} spans/s stored (${stored} of ${generatedSpans(run.output)} spans generated), ${run.errors} export errors logged, peak RSS ${peakRssMiB.toFixed(0)} MiB; CPU over the load: telemetrygen ${(run.cpuSecs / loadSecs).toFixed(2)} cores, svc ${(svcCpu / loadSecs).toFixed(2)} cores; load average ${loadAverage()}`,
    );
    console.log(
      `telemetrygen: 10-span export under that load: median ${loaded.medianMs.toFixed(1)} ms, p99 ${loaded.p99Ms.toFixed(1)} ms (${loaded.count} exports)`,
    );

    // Eight exporters offering 40k spans/s: telemetrygen's --rate is spans per second per worker
    // (measured: --rate 100 for 5 s stores 502 spans), but one worker tops out near 1,700 spans/s
    // whatever its rate, so each exporter runs 4 workers at 1,250 (5,000 per exporter). What was
    // really offered is read from the generators' own "traces generated" lines (2 spans a trace).
    const beforeEight = await settledStoredSpans(svc);
    const acceptedBeforeEight = await acceptedSpans(svc);
    const cpuBeforeEight = await svcCpuSecs(svc);
    const eightStartedMs = Date.now();
    const eight = await withPeakRss(
      svc,
      Promise.all(Array.from({ length: 8 }, () => runTelemetrygen(binary, svc.grpcPort, ['--workers', '4', '--rate', '1250', '--duration', `${seconds}s`]))),
    );
    const eightSecs = (Date.now() - eightStartedMs) / 1000;
    const eightStored = (await settledStoredSpans(svc)) - beforeEight;
    const eightAccepted = (await acceptedSpans(svc)) - acceptedBeforeEight;
    const eightErrors = eight.result.reduce((sum, one) => sum + one.errors, 0);
    const eightOffered = eight.result.reduce((sum, one) => sum + generatedSpans(one.output), 0);
    const eightGeneratorCores = eight.result.reduce((sum, one) => sum + one.cpuSecs, 0) / eightSecs;
    const eightSvcCores = ((await svcCpuSecs(svc)) - cpuBeforeEight) / eightSecs;
    console.log(
      `telemetrygen: eight exporters offering 40000 spans/s (${seconds} s): ${Math.round(eightStored / eightSecs)} spans/s stored of ${Math.round(eightOffered / eightSecs)} spans/s generated (${eightStored} of ${eightOffered} spans, ${((eightStored / eightOffered) * 100).toFixed(1)}%; svc acknowledged ${eightAccepted}, the rest never left the generators' queues), ${eightErrors} export errors logged, peak RSS ${eight.peakRssMiB.toFixed(0)} MiB; CPU: telemetrygen ${eightGeneratorCores.toFixed(2)} cores, svc ${eightSvcCores.toFixed(2)} cores; load average ${loadAverage()}`,
    );
  } finally {
    await svc.stop();
    data.cleanup();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
