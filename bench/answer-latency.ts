/**
 * How long one exporter waits for each answer: a real all-in-one, one sequential OTLP/gRPC exporter
 * of 512-span exports (256 traces of 2 spans, built fresh before each send, as telemetrygen does),
 * one export in flight. Reports the answer latency (median, p99, mean), the exporter's spans/s and
 * svc's CPU per accepted span. Optionally a paced background load (OTLP/HTTP spans and logs) keeps
 * the consumers busy meanwhile. With SVC_BENCH_ANSWER_BASE (an older build, built), that build runs
 * in turn with this one, each in a process of its own (base, this, base, this...).
 *   SVC_BENCH_ANSWER_SECS    seconds of load per run (default 15, after 3 s of warm-up)
 *   SVC_BENCH_ANSWER_ROUNDS  rounds (default 2)
 *   SVC_BENCH_ANSWER_BG      background items/s per signal (default 0: the exporter alone)
 *   SVC_BENCH_ANSWER_BASE    the older build's root (optional)
 *   SVC_BENCH_ANSWER_ENV     NAME=value pairs (space-separated) for the svc processes
 *   SVC_BENCH_ANSWER_NODE_ARGS node flags for the svc processes, space-separated (e.g. --cpu-prof)
 */
import os from 'node:os';
import { encodeLogsData } from '../src/otlp/encode-logs.js';
import { encodeTracesData } from '../src/otlp/encode-traces.js';
import { startAllInOne, tempDataDir } from '../src/testing/all-in-one.js';
import { metricValue } from '../src/testing/http.js';
import { buildTraceExport, grpcClient, grpcExport } from '../src/testing/otlp-load.js';
import { logBatch, spanBatch } from './ingest-e2e.js';

const TRACES_PER_EXPORT = 256;
const SPANS_PER_TRACE = 2;
const SPANS_PER_EXPORT = TRACES_PER_EXPORT * SPANS_PER_TRACE;
const WARMUP_SECS = 3;
/** Items per background export (the batches of ingest-e2e). */
const BACKGROUND_ITEMS = 500;
const BACKGROUND_CLIENTS_PER_SIGNAL = 2;

interface RunFigures {
  label: string;
  answers: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  spansPerSec: number;
  cpuMicrosPerSpan: number;
  load: string;
  /** SIGTERM to exit, right after the load (the assembler closes every open trace on the way). */
  stopSecs: number;
}

const loadAverage = () =>
  os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');

function quantile(sorted: readonly number[], q: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Paced background exports over HTTP until `stop()`; failed or refused ones are not retried (they only keep svc busy). */
function startBackground(port: number, ratePerSignal: number): { stop: () => Promise<void> } {
  let running = ratePerSignal > 0;
  const intervalMs = (BACKGROUND_CLIENTS_PER_SIGNAL * BACKGROUND_ITEMS * 1000) / Math.max(1, ratePerSignal);
  let sequence = 0;
  async function client(path: string, build: (nowNs: bigint, sequence: number) => Buffer): Promise<void> {
    let nextMs = Date.now() + Math.random() * intervalMs;
    while (running) {
      const waitMs = nextMs - Date.now();
      if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
      nextMs += intervalMs;
      const body = build(BigInt(Date.now()) * 1_000_000n, sequence++);
      const response = await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/x-protobuf' } }).catch(
        () => undefined,
      );
      await response?.arrayBuffer();
    }
  }
  const clients =
    ratePerSignal > 0
      ? Array.from({ length: BACKGROUND_CLIENTS_PER_SIGNAL }, () => [
          client('/v1/traces', (nowNs, seq) => encodeTracesData(spanBatch(nowNs, seq))),
          client('/v1/logs', (nowNs, seq) => encodeLogsData(logBatch(nowNs, seq))),
        ]).flat()
      : [];
  return {
    stop: async () => {
      running = false;
      await Promise.all(clients);
    },
  };
}

async function run(label: string, seconds: number, backgroundRate: number, svcRoot: string | undefined): Promise<RunFigures> {
  const data = tempDataDir('svc-bench-answer-');
  const env = Object.fromEntries(
    (process.env.SVC_BENCH_ANSWER_ENV ?? '')
      .split(' ')
      .filter((pair) => pair.includes('='))
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
  const nodeArgs = (process.env.SVC_BENCH_ANSWER_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
  const svc = await startAllInOne({ dataDir: data.dir, svcRoot, env, nodeArgs });
  const client = grpcClient(svc.grpcPort);
  const cpuSecs = async () => metricValue(await (await fetch(`${svc.apiUrl}/metrics`)).text(), 'process_cpu_seconds_total');
  const background = startBackground(svc.otlpHttpPort, backgroundRate);
  try {
    const latenciesMs: number[] = [];
    const warmupEndMs = Date.now() + WARMUP_SECS * 1000;
    let measuring = false;
    let cpuBefore = 0;
    let startedMs = 0;
    let endMs = Number.POSITIVE_INFINITY;
    for (;;) {
      const now = Date.now();
      if (!measuring && now >= warmupEndMs) {
        measuring = true;
        cpuBefore = await cpuSecs();
        startedMs = Date.now();
        endMs = startedMs + seconds * 1000;
      }
      if (now >= endMs) break;
      const { body } = buildTraceExport('answer-latency', TRACES_PER_EXPORT, SPANS_PER_TRACE);
      const sentAt = performance.now();
      const answer = await grpcExport(client, body);
      const tookMs = performance.now() - sentAt;
      if (answer.code !== 0) throw new Error(`export answered with gRPC status ${answer.code}`);
      if (measuring) latenciesMs.push(tookMs);
    }
    const elapsedSecs = (Date.now() - startedMs) / 1000;
    const cpuAfter = await cpuSecs();
    const load = loadAverage();
    const sorted = [...latenciesMs].sort((a, b) => a - b);
    const spans = latenciesMs.length * SPANS_PER_EXPORT;
    await background.stop();
    const stopStartedMs = Date.now();
    await svc.stop();
    const stopSecs = (Date.now() - stopStartedMs) / 1000;
    return {
      stopSecs,
      label,
      answers: latenciesMs.length,
      p50Ms: quantile(sorted, 0.5),
      p99Ms: quantile(sorted, 0.99),
      meanMs: sorted.reduce((sum, ms) => sum + ms, 0) / Math.max(1, sorted.length),
      spansPerSec: spans / elapsedSecs,
      // Background items are in svc's CPU too: per exporter span, this is a comparison figure only.
      cpuMicrosPerSpan: ((cpuAfter - cpuBefore) * 1e6) / Math.max(1, spans),
      load,
    };
  } finally {
    // Already done after a complete run; here for a run that failed.
    await background.stop();
    client.close();
    await svc.stop();
    data.cleanup();
  }
}

function print(f: RunFigures): void {
  console.log(
    `answer latency [${f.label}]: p50 ${f.p50Ms.toFixed(1)} ms, p99 ${f.p99Ms.toFixed(1)} ms, mean ${f.meanMs.toFixed(1)} ms over ${f.answers} exports of ${SPANS_PER_EXPORT} spans; ${Math.round(f.spansPerSec)} spans/s; svc CPU ${f.cpuMicrosPerSpan.toFixed(1)} µs per exporter span; stop ${f.stopSecs.toFixed(1)} s; load average ${f.load}`,
  );
}

export async function main(): Promise<void> {
  const seconds = Number(process.env.SVC_BENCH_ANSWER_SECS ?? 15);
  const rounds = Number(process.env.SVC_BENCH_ANSWER_ROUNDS ?? 2);
  const backgroundRate = Number(process.env.SVC_BENCH_ANSWER_BG ?? 0);
  const base = process.env.SVC_BENCH_ANSWER_BASE;
  console.log(`one sequential exporter, ${seconds} s per run, background ${backgroundRate} spans/s + ${backgroundRate} logs/s`);
  const all: RunFigures[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const root of base === undefined ? [undefined] : [base, undefined]) {
      const figures = await run(root === undefined ? 'this build' : `base ${root}`, seconds, backgroundRate, root);
      print(figures);
      all.push(figures);
    }
  }
  if (all.length > 2) {
    for (const label of new Set(all.map((f) => f.label))) {
      const mine = all.filter((f) => f.label === label);
      const median = (pick: (f: RunFigures) => number) => {
        const sorted = mine.map(pick).sort((a, b) => a - b);
        return (sorted[Math.floor((sorted.length - 1) / 2)]! + sorted[Math.ceil((sorted.length - 1) / 2)]!) / 2;
      };
      console.log(
        `answer latency [${label}] median of ${mine.length}: p50 ${median((f) => f.p50Ms).toFixed(1)} ms, mean ${median((f) => f.meanMs).toFixed(1)} ms, ${Math.round(median((f) => f.spansPerSec))} spans/s, ${median((f) => f.cpuMicrosPerSpan).toFixed(1)} µs/span`,
      );
    }
  }
}
