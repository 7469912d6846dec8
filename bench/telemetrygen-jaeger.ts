/**
 * svc all-in-one and Jaeger v2 all-in-one with Badger side by side under the same `telemetrygen`
 * loads (OTLP/gRPC, default settings, a fresh data directory for every load), run alternately so a
 * drift in the machine's load falls on both:
 *   - one exporter (`traces --workers 4 --rate 0 --batch-size 512`): spans stored per second;
 *   - eight exporters offering 40k spans/s in all (4 workers at 1,250 spans/s each).
 * Stored: svc's writer rows (svc_writer_rows_written_total), Jaeger's spans its storage exporter
 * wrote (otelcol_exporter_sent_spans_total), each waited for until it stops rising for 3 s.
 * CPU: every thread of the server process from /proc, per stored span.
 *   SVC_BENCH_TELEMETRYGEN_SECS    seconds per load (default 30)
 *   SVC_BENCH_SIDE_BY_SIDE_ROUNDS  rounds (default 2; each runs both servers under both loads)
 *   SVC_JAEGER_BIN                 Jaeger's binary (default: the cache of scripts/jaeger/fetch.sh)
 *   SVC_BENCH_SIDE_BY_SIDE_LOADS   `one`, `eight` or both (default), to measure one load alone
 *   SVC_BENCH_SIDE_BY_SIDE_SERVERS `svc`, `jaeger` or both (default), to measure one server alone
 *   SVC_BENCH_SIDE_BY_SIDE_BASE    a checkout of an older build: run as a third server, `svc-base`, in turn
 */
import { existsSync } from 'node:fs';
import os, { homedir } from 'node:os';
import { join } from 'node:path';
import { startAllInOne, tempDataDir } from '../src/testing/all-in-one.js';
import { metricValue } from '../src/testing/http.js';
import { startJaeger } from '../src/testing/jaeger.js';
import { cpuSecondsOf, generatedSpans, runTelemetrygen, telemetrygenPath } from './telemetrygen.js';

interface Server {
  pid: number;
  grpcPort: number;
  storedSpans(): Promise<number>;
  stop(): Promise<void>;
}

type ServerName = 'svc' | 'svc-base' | 'jaeger';
type LoadName = 'one exporter' | 'eight exporters';

interface Result {
  server: ServerName;
  load: LoadName;
  storedPerSec: number;
  offeredPerSec: number;
  cpuMicrosPerSpan: number;
  cores: number;
  loadAverage: string;
}

function jaegerBinary(): string | undefined {
  const named = process.env.SVC_JAEGER_BIN;
  if (named !== undefined && named !== '') return named;
  const cached = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'svc-jaeger', 'v1.76.0', 'bin', 'jaeger');
  return existsSync(cached) ? cached : undefined;
}

async function startServer(name: ServerName, jaeger: string): Promise<Server> {
  if (name !== 'jaeger') {
    const data = tempDataDir('svc-bench-side-');
    const base = process.env.SVC_BENCH_SIDE_BY_SIDE_BASE;
    const svc = await startAllInOne({ dataDir: data.dir, ...(name === 'svc-base' && base !== undefined ? { svcRoot: base } : {}) });
    return {
      pid: svc.process.pid!,
      grpcPort: svc.grpcPort,
      storedSpans: async () => metricValue(await (await fetch(`${svc.apiUrl}/metrics`)).text(), 'svc_writer_rows_written_total', { table: 'spans' }),
      stop: async () => {
        await svc.stop();
        data.cleanup();
      },
    };
  }
  const running = await startJaeger(jaeger, 'badger', { otlpGrpc: true, metrics: true });
  return {
    pid: running.process.pid!,
    grpcPort: running.otlpGrpcPort,
    storedSpans: async () => metricValue(await (await fetch(running.metricsUrl!)).text(), 'otelcol_exporter_sent_spans_total'),
    stop: running.stop,
  };
}

/** The stored count once it has not risen for 3 s. */
async function settled(server: Server): Promise<number> {
  let last = await server.storedSpans();
  let lastChangeMs = Date.now();
  while (Date.now() - lastChangeMs < 3000) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = await server.storedSpans();
    if (now !== last) lastChangeMs = Date.now();
    last = now;
  }
  return last;
}

const loadAverage = () =>
  os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');

async function runLoad(serverName: ServerName, load: LoadName, telemetrygen: string, jaeger: string, seconds: number): Promise<Result> {
  const server = await startServer(serverName, jaeger);
  try {
    const storedBefore = await server.storedSpans();
    const cpuBefore = cpuSecondsOf(server.pid) ?? 0;
    const startedMs = Date.now();
    const runs =
      load === 'one exporter'
        ? [runTelemetrygen(telemetrygen, server.grpcPort, ['--workers', '4', '--rate', '0', '--batch-size', '512', '--duration', `${seconds}s`])]
        : Array.from({ length: 8 }, () => runTelemetrygen(telemetrygen, server.grpcPort, ['--workers', '4', '--rate', '1250', '--duration', `${seconds}s`]));
    const generators = await Promise.all(runs);
    const loadSecs = (Date.now() - startedMs) / 1000;
    const stored = (await settled(server)) - storedBefore;
    const cpuSecs = (cpuSecondsOf(server.pid) ?? 0) - cpuBefore;
    const allSecs = (Date.now() - startedMs) / 1000;
    return {
      server: serverName,
      load,
      storedPerSec: stored / loadSecs,
      offeredPerSec: generators.reduce((sum, run) => sum + generatedSpans(run.output), 0) / loadSecs,
      cpuMicrosPerSpan: (cpuSecs * 1e6) / Math.max(1, stored),
      cores: cpuSecs / allSecs,
      loadAverage: loadAverage(),
    };
  } finally {
    await server.stop();
  }
}

/** The loads (or servers) an environment variable names, all of them when it is unset or empty. */
function chosen<T extends string>(variable: string, all: readonly T[], word: (item: T) => string): T[] {
  const named = (process.env[variable] ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (named.length === 0) return [...all];
  const picked = all.filter((item) => named.includes(word(item)));
  if (picked.length === 0) throw new Error(`${variable}=${process.env[variable]} names none of ${all.map(word).join(', ')}`);
  return picked;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

export async function main(): Promise<Result[]> {
  const telemetrygen = telemetrygenPath();
  const jaeger = jaegerBinary();
  if (telemetrygen === undefined || jaeger === undefined) {
    console.log(
      `telemetrygen vs Jaeger: needs telemetrygen (bash scripts/telemetrygen/fetch.sh) and Jaeger (bash scripts/jaeger/fetch.sh), or SVC_TELEMETRYGEN / SVC_JAEGER_BIN. Skipped.`,
    );
    return [];
  }
  const seconds = Number(process.env.SVC_BENCH_TELEMETRYGEN_SECS ?? 30);
  const rounds = Number(process.env.SVC_BENCH_SIDE_BY_SIDE_ROUNDS ?? 2);
  const loads = chosen('SVC_BENCH_SIDE_BY_SIDE_LOADS', ['one exporter', 'eight exporters'] as const, (load) => load.split(' ')[0]!);
  const servers: ServerName[] = chosen('SVC_BENCH_SIDE_BY_SIDE_SERVERS', ['svc', 'jaeger'] as const, (server) => server);
  if ((process.env.SVC_BENCH_SIDE_BY_SIDE_BASE ?? '') !== '') servers.splice(1, 0, 'svc-base');
  const results: Result[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const load of loads) {
      // Alternate which server goes first.
      const order: ServerName[] = round % 2 === 0 ? [...servers] : [...servers].reverse();
      for (const server of order) {
        const result = await runLoad(server, load, telemetrygen, jaeger, seconds);
        console.log(
          `telemetrygen vs Jaeger, round ${round + 1}, ${load}, ${server}: ${Math.round(result.storedPerSec)} spans/s stored of ${Math.round(result.offeredPerSec)} generated, ${result.cpuMicrosPerSpan.toFixed(1)} µs of CPU per stored span (${result.cores.toFixed(2)} cores); load average ${result.loadAverage}`,
        );
        results.push(result);
      }
    }
  }
  for (const load of loads) {
    const of = (server: ServerName, pick: (r: Result) => number) => median(results.filter((r) => r.server === server && r.load === load).map(pick));
    const svc = of('svc', (r) => r.storedPerSec);
    const jaegerStored = of('jaeger', (r) => r.storedPerSec);
    console.log(
      `telemetrygen vs Jaeger, ${load} (medians of ${rounds}): svc ${Math.round(svc)} spans/s stored, Jaeger+Badger ${Math.round(jaegerStored)}, ratio ${(svc / jaegerStored).toFixed(2)}x; CPU per stored span svc ${of('svc', (r) => r.cpuMicrosPerSpan).toFixed(1)} µs, Jaeger ${of('jaeger', (r) => r.cpuMicrosPerSpan).toFixed(1)} µs` +
        (servers.includes('svc-base')
          ? `; svc-base ${Math.round(of('svc-base', (r) => r.storedPerSec))} spans/s, ${of('svc-base', (r) => r.cpuMicrosPerSpan).toFixed(1)} µs`
          : ''),
    );
  }
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
