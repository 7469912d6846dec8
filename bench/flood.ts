/**
 * All-in-one under a flood (default settings, a fresh data dir): 1,000 keep-alive exporters
 * (800 OTLP/HTTP, 200 OTLP/gRPC, each on a connection of its own) sending 1,000-span exports one
 * at a time for 30 s, each honouring Retry-After / RetryInfo and giving an export up after 10 s,
 * as OTel exporters do. Prints the answer time (p50/p99) of accepted exports and of all answers,
 * the refused and given-up counts (svc's refusals by reason), the peak RSS of svc's process tree split anonymous /
 * file-backed, and whether every acknowledged trace was stored: the writer's span rows against the
 * acknowledged spans, and a sample of acknowledged traces read back whole through the API.
 *   SVC_BENCH_FLOOD_SECS       seconds of flood (default 30)
 *   SVC_BENCH_FLOOD_EXPORTERS  exporters in all (default 1000; a fifth of them gRPC)
 *   SVC_BENCH_SVC_ROOT         run bin/svc.js of another checkout (a baseline build) instead of this one
 */
import os from 'node:os';
import { startAllInOne, tempDataDir } from '../src/testing/all-in-one.js';
import { metricValue } from '../src/testing/http.js';
import { quantile, runFlood, treeRss, type TreeRss } from '../src/testing/flood-load.js';
import { RETRY_REASONS } from '../src/ingest/refusal.js';

const GIB = 2 ** 30;
const SAMPLED_TRACES = 200;

const loadAverage = () =>
  os
    .loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');

async function storedSpans(apiUrl: string): Promise<number> {
  return metricValue(await (await fetch(`${apiUrl}/metrics`)).text(), 'svc_writer_rows_written_total', { table: 'spans' });
}

/** The stored count once it reaches `wanted` or stops rising for 30 s (an insert behind a large merge may take that long). */
async function settledStoredSpans(apiUrl: string, wanted: number): Promise<number> {
  let last = await storedSpans(apiUrl);
  let lastChangeMs = Date.now();
  while (last < wanted && Date.now() - lastChangeMs < 30_000) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    const now = await storedSpans(apiUrl);
    if (now !== last) lastChangeMs = Date.now();
    last = now;
  }
  return last;
}

/** How many of `traceIds` the API returns with all `spansPerTrace` spans. */
async function wholeTraces(apiUrl: string, traceIds: string[], spansPerTrace: number): Promise<number> {
  let whole = 0;
  for (const traceId of traceIds) {
    const response = await fetch(`${apiUrl}/api/v1/traces/${traceId}`);
    if (response.status !== 200) continue;
    const body = (await response.json()) as { spans?: unknown[] };
    if ((body.spans?.length ?? 0) === spansPerTrace) whole += 1;
  }
  return whole;
}

function sampleOf<T>(values: T[], count: number): T[] {
  if (values.length <= count) return values;
  const step = values.length / count;
  return Array.from({ length: count }, (_, i) => values[Math.floor(i * step)]).filter((value): value is T => value !== undefined);
}

/** svc's own count of retry-later answers, by reason (both transports). */
async function refusalsByReason(apiUrl: string): Promise<string> {
  const text = await (await fetch(`${apiUrl}/metrics`)).text();
  return RETRY_REASONS.map((reason) => `${reason} ${metricValue(text, 'svc_ingest_backpressure_total', { reason })}`).join(', ');
}

const ms = (value: number) => `${Math.round(value)} ms`;
const gib = (bytes: number) => `${(bytes / GIB).toFixed(2)} GiB`;

export async function main(): Promise<void> {
  const seconds = Number(process.env.SVC_BENCH_FLOOD_SECS ?? 30);
  const exporters = Number(process.env.SVC_BENCH_FLOOD_EXPORTERS ?? 1000);
  const grpcExporters = Math.round(exporters / 5);
  const svcRoot = process.env.SVC_BENCH_SVC_ROOT;
  const data = tempDataDir('svc-bench-flood-');
  const svc = await startAllInOne({ dataDir: data.dir, ...(svcRoot !== undefined ? { svcRoot } : {}) });
  const pid = svc.process.pid!;
  try {
    console.log(`flood: ${svcRoot ?? 'this build'}; load average before ${loadAverage()}`);
    let peak: TreeRss & { totalBytes: number } = { anonBytes: 0, fileBytes: 0, totalBytes: 0 };
    const sampler = setInterval(() => {
      const now = treeRss(pid);
      if (now.anonBytes + now.fileBytes > peak.totalBytes) peak = { ...now, totalBytes: now.anonBytes + now.fileBytes };
    }, 100);
    const result = await runFlood({
      httpPort: svc.otlpHttpPort,
      grpcPort: svc.grpcPort,
      httpExporters: exporters - grpcExporters,
      grpcExporters,
      tracesPerExport: 100,
      spansPerTrace: 10,
      durationMs: seconds * 1000,
      timeoutMs: 10_000,
    });
    clearInterval(sampler);
    const loadDuring = loadAverage();
    const accepted = result.answers.filter((answer) => answer.kind === 'accepted').map((answer) => answer.answerMs);
    const all = result.answers.map((answer) => answer.answerMs);
    const count = (kind: string) => result.answers.filter((answer) => answer.kind === kind).length;
    console.log(
      `flood: ${exporters} exporters (${grpcExporters} gRPC) x ${result.spansPerExport} spans (${(result.exportBytes / 1024).toFixed(0)} KiB), ${seconds} s`,
    );
    console.log(
      `flood: exports accepted ${accepted.length}, refused ${count('refused')} (retry after ${result.retryDelaysSecs.join(', ')} s), given up at 10 s ${count('timeout')}, failed ${count('error')}`,
    );
    console.log(`flood: refusals by reason: ${await refusalsByReason(svc.apiUrl)}`);
    console.log(`flood: accepted spans/s ${Math.round(result.acceptedSpans / seconds)}`);
    console.log(`flood: answer of accepted exports p50 ${ms(quantile(accepted, 0.5))}, p99 ${ms(quantile(accepted, 0.99))}, max ${ms(quantile(accepted, 1))}`);
    console.log(`flood: answer of all exports p50 ${ms(quantile(all, 0.5))}, p99 ${ms(quantile(all, 0.99))}`);
    console.log(`flood: peak RSS of the process tree ${gib(peak.totalBytes)} (anonymous ${gib(peak.anonBytes)}, file-backed ${gib(peak.fileBytes)})`);
    const stored = await settledStoredSpans(svc.apiUrl, result.acceptedSpans);
    const sample = sampleOf(result.acceptedTraceIds, SAMPLED_TRACES);
    const whole = await wholeTraces(svc.apiUrl, sample, 10);
    console.log(`flood: stored spans ${stored} of ${result.acceptedSpans} acknowledged; sampled acknowledged traces read back whole ${whole}/${sample.length}`);
    console.log(`flood: load average during ${loadDuring}`);
  } finally {
    await svc.stop();
    data.cleanup();
  }
}
