/**
 * End-to-end ingest of all-in-one: a real `svc all-in-one` process on loopback, fed spans and logs
 * over OTLP/HTTP protobuf by concurrent clients for a fixed time, then checked for loss: every item
 * a client was told was accepted must be stored. Prints accepted and stored rates and the RSS.
 *   SVC_BENCH_INGEST_SECS   load duration (default 30; the DESIGN target is stated for 600)
 *   SVC_BENCH_INGEST_CLIENTS  concurrent exporters per signal (default 24)
 *   SVC_BENCH_INGEST_RATE   items/s offered per signal in all (default: as fast as answered)
 *   SVC_BENCH_SVC_NODE_ARGS  node flags for the svc process, space-separated (e.g. --cpu-prof --cpu-prof-dir=/tmp/prof)
 *   SVC_BENCH_SVC_ENV    extra environment for the svc process, space-separated NAME=value pairs
 *   SVC_BENCH_ANON_HOLDERS  1: also print svc's mean anonymous memory and, at its peak, who held it (anon-holders.ts)
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import type { LogRow, SpanRow } from '../src/model/signals.js';
import { encodeLogsData } from '../src/otlp/encode-logs.js';
import { encodeTracesData } from '../src/otlp/encode-traces.js';
import { startAllInOne, tempDataDir } from '../src/testing/all-in-one.js';
import { metricValue } from '../src/testing/http.js';
import { treeRss } from '../src/testing/flood-load.js';
import { anonHolders, describeAnonHolders, type AnonHolders } from './anon-holders.js';
import { RETRY_REASONS } from '../src/ingest/refusal.js';
import { startThreadCpuSampler, type ThreadGroup } from './thread-cpu.js';

// The SDK's BatchSpanProcessor exports up to 512 items per request; many exporters in flight, as
// in a real fleet.
const SPANS_PER_REQUEST = 500;
const LOGS_PER_REQUEST = 500;
const SERVICES = ['frontend', 'checkout', 'payments', 'inventory', 'shipping'];

export function spanBatch(nowNs: bigint, sequence: number): SpanRow[] {
  const rows: SpanRow[] = [];
  // Ten traces of ten spans per request, like a busy service's exporter batch.
  for (let t = 0; t < SPANS_PER_REQUEST / 10; t++) {
    const traceId = randomBytes(16).toString('hex');
    const rootId = randomBytes(8).toString('hex');
    for (let s = 0; s < 10; s++) {
      const startNs = nowNs + BigInt(s * 1_000_000);
      rows.push({
        traceId,
        spanId: s === 0 ? rootId : randomBytes(8).toString('hex'),
        parentSpanId: s === 0 ? '' : rootId,
        serviceName: SERVICES[(sequence + s) % SERVICES.length],
        name: s === 0 ? 'GET /api/orders/:id' : `SELECT orders ${s}`,
        kind: s === 0 ? 'server' : 'client',
        startNs,
        endNs: startNs + BigInt(2_000_000 + s * 100_000),
        status: 'unset',
        statusMessage: '',
        attrs: [
          ['http.route', '/api/orders/:id'],
          ['http.status_code', 200],
          ['db.system', 'postgresql'],
          ['net.peer.name', 'db-1'],
          ['user.id', `u-${sequence % 1000}`],
          ['retry', false],
          ['ratio', 0.5],
          ['region', 'eu-west-1'],
          ['build', '1.4.2'],
          ['thread', s],
        ],
        resource: [
          ['service.name', SERVICES[(sequence + s) % SERVICES.length]],
          ['host.name', 'bench-host'],
        ],
        events: [],
        scopeName: 'bench',
        scopeVersion: '1.0.0',
      });
    }
  }
  return rows;
}

export function logBatch(nowNs: bigint, sequence: number): LogRow[] {
  return Array.from({ length: LOGS_PER_REQUEST }, (_, i) => ({
    logId: '0',
    tsNs: nowNs + BigInt(i),
    observedTsNs: nowNs + BigInt(i),
    traceId: i % 2 === 0 ? randomBytes(16).toString('hex') : '',
    spanId: i % 2 === 0 ? randomBytes(8).toString('hex') : '',
    serviceName: SERVICES[i % SERVICES.length],
    severityNumber: i % 10 === 0 ? 17 : 9,
    severityText: i % 10 === 0 ? 'ERROR' : 'INFO',
    body: `order ${sequence * LOGS_PER_REQUEST + i} processed in ${i % 37} ms for user u-${i % 100}`,
    attrs: [['attempt', i % 3]],
    resource: [['service.name', SERVICES[i % SERVICES.length]]],
    scopeName: 'bench',
    scopeVersion: '',
  }));
}

/** What another bench (cpu-breakdown) sets instead of the environment. */
export interface IngestBenchOptions {
  seconds?: number;
  ratePerSignal?: number;
  nodeArgs?: string[];
  /** Runs this checkout's build instead (a copy of the build before a change, for interleaved runs). */
  svcRoot?: string;
}

export interface IngestBenchFigures {
  spansPerSec: number;
  logsPerSec: number;
  lost: number;
  rssMiB: number;
  /** Peak anonymous and file-backed resident MiB of the process tree during the run. */
  maxAnonMiB: number;
  maxFileMiB: number;
  /** Exports answered retry-later (the bench's clients retry them). */
  retries: number;
  storedItems: number;
  cpuSecs: number;
  /** CPU seconds per thread group from the load's start until everything was stored. */
  threadCpuSecs: Map<ThreadGroup | 'ended threads', number>;
  /** The engine's background threads' CPU seconds by thread name. */
  backgroundCpuSecs: Map<string, number>;
  loadAverage: number[];
}

export async function main(_args: readonly string[] = [], options: IngestBenchOptions = {}): Promise<IngestBenchFigures> {
  const seconds = options.seconds ?? Number(process.env.SVC_BENCH_INGEST_SECS ?? 30);
  const clients = Number(process.env.SVC_BENCH_INGEST_CLIENTS ?? 24);
  const data = tempDataDir('svc-bench-ingest-');
  const ratePerSignal = options.ratePerSignal ?? Number(process.env.SVC_BENCH_INGEST_RATE ?? 0);
  const nodeArgs = options.nodeArgs ?? (process.env.SVC_BENCH_SVC_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
  const env = Object.fromEntries(
    (process.env.SVC_BENCH_SVC_ENV ?? '')
      .split(' ')
      .filter((pair) => pair.includes('='))
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
  const svc = await startAllInOne({ dataDir: data.dir, nodeArgs, env, svcRoot: options.svcRoot });
  const base = `http://127.0.0.1:${svc.otlpHttpPort}`;
  const cpuSecsAt = async () => metricValue(await (await fetch(`${svc.apiUrl}/metrics`)).text(), 'process_cpu_seconds_total');
  const cpuSecsBefore = await cpuSecsAt();
  const threadCpu = startThreadCpuSampler(svc.process.pid!);
  let acceptedSpans = 0;
  let acceptedLogs = 0;
  let retries = 0;
  let sequence = 0;
  const deadlineMs = Date.now() + seconds * 1000;
  const startedMs = Date.now();
  let maxRssMiB = 0;
  // Peaks of the process tree's anonymous and file-backed (mapped files, shared memory) resident memory.
  let maxAnonMiB = 0;
  let maxFileMiB = 0;
  // SVC_BENCH_ANON_HOLDERS=1: who held svc's anonymous memory when it peaked (reading smaps costs the bench some CPU).
  const holdersWanted = process.env.SVC_BENCH_ANON_HOLDERS === '1';
  let peakHolders: { anonBytes: number; holders: AnonHolders } | undefined;
  let anonSamples = 0;
  let anonSumBytes = 0;
  const rssSampler = setInterval(() => {
    const holders = holdersWanted ? anonHolders(svc.process.pid!) : undefined;
    if (holders !== undefined) {
      const anonBytes = holders.v8PagesBytes + holders.mainArenaBytes + holders.threadArenasBytes + holders.otherBytes;
      if (anonBytes > (peakHolders?.anonBytes ?? 0)) peakHolders = { anonBytes, holders };
      anonSamples++;
      anonSumBytes += anonBytes;
    }
    readFile(`/proc/${svc.process.pid}/status`, 'utf8')
      .then((status) => {
        const kib = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
        maxRssMiB = Math.max(maxRssMiB, kib / 1024);
      })
      .catch(() => undefined);
    const tree = treeRss(svc.process.pid!);
    maxAnonMiB = Math.max(maxAnonMiB, tree.anonBytes / 2 ** 20);
    maxFileMiB = Math.max(maxFileMiB, tree.fileBytes / 2 ** 20);
  }, 500);

  async function client(path: string, build: (nowNs: bigint, sequence: number) => Buffer, items: number, onAccepted: () => void): Promise<void> {
    // With a rate, each client sends on its own schedule so that all of them together offer it.
    const intervalMs = ratePerSignal > 0 ? (clients * items * 1000) / ratePerSignal : 0;
    let nextSendMs = Date.now() + Math.random() * intervalMs;
    while (Date.now() < deadlineMs) {
      if (intervalMs > 0) {
        const waitMs = nextSendMs - Date.now();
        if (waitMs > 0) await new Promise((resolve) => setTimeout(resolve, waitMs));
        nextSendMs += intervalMs;
      }
      const body = build(BigInt(Date.now()) * 1_000_000n, sequence++);
      for (;;) {
        const response = await fetch(`${base}${path}`, { method: 'POST', body, headers: { 'content-type': 'application/x-protobuf' } });
        await response.arrayBuffer();
        if (response.status === 200) break;
        if (response.status !== 503 && response.status !== 429) throw new Error(`unexpected status ${response.status}`);
        retries++;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      onAccepted();
      void items;
    }
  }

  const load = Promise.all([
    ...Array.from({ length: clients }, () =>
      client(
        '/v1/traces',
        (nowNs, seq) => encodeTracesData(spanBatch(nowNs, seq)),
        SPANS_PER_REQUEST,
        () => (acceptedSpans += SPANS_PER_REQUEST),
      ),
    ),
    ...Array.from({ length: clients }, () =>
      client(
        '/v1/logs',
        (nowNs, seq) => encodeLogsData(logBatch(nowNs, seq)),
        LOGS_PER_REQUEST,
        () => (acceptedLogs += LOGS_PER_REQUEST),
      ),
    ),
  ]);
  try {
    await load;
  } catch (error) {
    // A client that failed must not leave the server running behind the bench.
    clearInterval(rssSampler);
    await svc.stop();
    data.cleanup();
    throw error;
  }
  const elapsedSecs = (Date.now() - startedMs) / 1000;
  // Acknowledged means synced to the embedded bus; the writer stores in its own time. Wait until
  // it has stored everything accepted, or until the stored counts stop rising for 15 s (loss).
  let metrics = '';
  let storedSpans = 0;
  let storedLogs = 0;
  let lastProgressMs = Date.now();
  for (;;) {
    metrics = await (await fetch(`${svc.apiUrl}/metrics`)).text();
    const spans = metricValue(metrics, 'svc_writer_rows_written_total', { table: 'spans' });
    const logs = metricValue(metrics, 'svc_writer_rows_written_total', { table: 'logs' });
    if (spans !== storedSpans || logs !== storedLogs) lastProgressMs = Date.now();
    storedSpans = spans;
    storedLogs = logs;
    if ((storedSpans >= acceptedSpans && storedLogs >= acceptedLogs) || Date.now() - lastProgressMs > 15_000) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const storeSecs = (Date.now() - startedMs) / 1000;
  // CPU of every thread of the process (ingest, consumers, encoder thread, the engine's inserts and
  // merges) per item stored: comparable between runs even on a busy machine, unlike rates.
  const cpuSecs = metricValue(metrics, 'process_cpu_seconds_total') - cpuSecsBefore;
  const threadCpuSecs = threadCpu.stop();
  const loadAverage = os.loadavg();
  const rssMiB = metricValue(metrics, 'process_resident_memory_bytes') / 2 ** 20;
  clearInterval(rssSampler);
  await svc.stop();
  data.cleanup();
  const lost = Math.max(0, acceptedSpans - storedSpans) + Math.max(0, acceptedLogs - storedLogs);
  const storedItems = storedSpans + storedLogs;
  const figures = {
    spansPerSec: acceptedSpans / elapsedSecs,
    logsPerSec: acceptedLogs / elapsedSecs,
    lost,
    rssMiB,
    maxAnonMiB,
    maxFileMiB,
    retries,
    storedItems,
    cpuSecs,
    threadCpuSecs,
    backgroundCpuSecs: threadCpu.backgroundByName,
    loadAverage,
  };
  console.log(
    `ingest e2e all-in-one (OTLP/HTTP protobuf, ${clients}+${clients} clients, ${seconds} s): ${Math.round(figures.spansPerSec)} spans/s + ${Math.round(figures.logsPerSec)} logs/s accepted and stored`,
  );
  console.log(
    `ingest e2e loss: ${lost} items (accepted ${acceptedSpans} spans / stored ${storedSpans}; accepted ${acceptedLogs} logs / stored ${storedLogs}); ${retries} retry-later answers`,
  );
  console.log(
    `ingest e2e: everything stored ${(storeSecs - elapsedSecs).toFixed(1)} s after the load stopped (${Math.round(storedSpans / storeSecs)} spans/s + ${Math.round(storedLogs / storeSecs)} logs/s stored over load and catch-up)`,
  );
  console.log(
    `ingest e2e CPU: svc used ${(cpuSecs / storeSecs).toFixed(2)} cores, ${((cpuSecs * 1e6) / Math.max(1, storedSpans + storedLogs)).toFixed(1)} µs of CPU per item stored (all threads)`,
  );
  if (peakHolders !== undefined)
    console.log(
      `ingest e2e svc's anonymous memory: mean ${(anonSumBytes / anonSamples / 2 ** 20).toFixed(0)} MiB; at its peak ${(peakHolders.anonBytes / 2 ** 20).toFixed(0)} MiB: ${describeAnonHolders(peakHolders.holders)}`,
    );
  const perThread = [...threadCpuSecs].map(([group, secs]) => `${group} ${((secs * 1e6) / Math.max(1, storedItems)).toFixed(1)}`).join(', ');
  console.log(`ingest e2e CPU by thread, µs per item stored: ${perThread}`);
  const refusals = RETRY_REASONS.map((reason) => `${reason} ${metricValue(metrics, 'svc_ingest_backpressure_total', { reason })}`).join(', ');
  console.log(`ingest e2e retry-later answers by reason: ${refusals}; bus log at end ${(metricValue(metrics, 'svc_bus_log_bytes') / 2 ** 20).toFixed(0)} MiB`);
  const mib = (name: string) => (metricValue(metrics, name) / 2 ** 20).toFixed(0);
  console.log(
    `ingest e2e memory at end: JS heap ${mib('nodejs_heap_size_used_bytes')} MiB used of ${mib('nodejs_heap_size_total_bytes')} MiB, external ${mib('nodejs_external_memory_bytes')} MiB`,
  );
  console.log(
    `ingest e2e RSS at end: ${rssMiB.toFixed(0)} MiB, at most ${maxRssMiB.toFixed(0)} MiB during the run (process tree at most: anonymous ${maxAnonMiB.toFixed(0)} MiB, file-backed ${maxFileMiB.toFixed(0)} MiB); load average ${os
      .loadavg()
      .map((load) => load.toFixed(2))
      .join(' ')}`,
  );
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
