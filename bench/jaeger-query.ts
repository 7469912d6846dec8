/**
 * The Jaeger query API side by side with real Jaeger v2 + Badger on the same spans: p95 of
 * `GET /api/traces/{id}` and of `GET /api/traces?service=…&limit=20`, each asked over HTTP by this
 * process's one client, interleaved svc / Jaeger so that the machine's load falls on both alike.
 * Each server is its own process, as a user runs it: `svc all-in-one` (bin/svc.js) on a data
 * directory prepared beforehand by a child process of this bench (the spans inserted straight into
 * the store, then the store closed), and Jaeger fed the same spans over OTLP/HTTP meanwhile, so that
 * neither server shares a thread with the client nor the client with the other.
 * Jaeger runs when its binary is built (scripts/jaeger/fetch.sh; SVC_JAEGER_BIN names another).
 * Usage: node dist/bench/jaeger-query.js [spans, default 1000000]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SpanRow } from '../src/model/signals.js';
import { createStore } from '../src/store/create-store.js';
import { migrate } from '../src/store/migrate.js';
import { startAllInOne, type RunningAllInOne } from '../src/testing/all-in-one.js';
import { insertSpans } from '../src/testing/store-rows.js';
import { startJaeger, waitFor, type RunningJaeger } from '../src/testing/jaeger.js';

export const SPANS_PER_TRACE = 20;
const SERVICES = 12;
const RUNS = 200;
const BATCH_TRACES = 500;
/** svc's default database, so that `svc all-in-one` reads what the preparing child wrote. */
const SVC_DATABASE = 'svc';

function median(samples: number[]): number {
  return [...samples].sort((a, b) => a - b)[Math.floor(samples.length / 2)] ?? 0;
}

function p95(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? 0;
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
export const traceIdOf = (t: number) => `${hex(0x5eed0000 + (t % 65_536), 16)}${hex(t, 16)}`;

/** One trace's spans: a server root and 19 children over the services, a few attributes each. */
export function traceSpans(t: number, startNs: bigint): SpanRow[] {
  const traceId = traceIdOf(t);
  return Array.from({ length: SPANS_PER_TRACE }, (_, i): SpanRow => {
    const service = `service-${(t + i) % SERVICES}`;
    const spanStart = startNs + BigInt(i) * 1_000_000n;
    return {
      traceId,
      spanId: hex(t * SPANS_PER_TRACE + i + 1, 16),
      parentSpanId: i === 0 ? '' : hex(t * SPANS_PER_TRACE + 1, 16),
      serviceName: service,
      name: i === 0 ? `GET /route/${t % 50}` : `op ${i % 40}`,
      kind: i === 0 ? 'server' : 'client',
      startNs: spanStart,
      endNs: spanStart + 500_000n + BigInt((t * 7 + i) % 97) * 100_000n,
      status: (t + i) % 50 === 0 ? 'error' : 'unset',
      statusMessage: '',
      attrs: [
        ['http.status_code', (t + i) % 50 === 0 ? 500 : 200],
        ['http.route', `/route/${t % 50}`],
      ],
      resource: [
        ['service.name', service],
        ['host.name', `host-${t % 8}`],
      ],
      events: [],
      scopeName: 'bench',
      scopeVersion: '1',
    };
  });
}

/** The same spans as one OTLP/HTTP JSON export. */
function otlpExport(spans: SpanRow[]): string {
  const byService = new Map<string, SpanRow[]>();
  for (const span of spans) byService.set(span.serviceName, [...(byService.get(span.serviceName) ?? []), span]);
  return JSON.stringify({
    resourceSpans: [...byService]
      .map(([service, rows]) => ({
        resource: { attributes: rows[0]!.resource.map(([key, value]) => ({ key, value: { stringValue: String(value) } })) },
        scopeSpans: [
          {
            scope: { name: 'bench', version: '1' },
            spans: rows.map((span) => ({
              traceId: span.traceId,
              spanId: span.spanId,
              ...(span.parentSpanId === '' ? {} : { parentSpanId: span.parentSpanId }),
              name: span.name,
              kind: span.kind === 'server' ? 2 : 3,
              startTimeUnixNano: span.startNs.toString(),
              endTimeUnixNano: span.endNs.toString(),
              attributes: [
                { key: 'http.status_code', value: { intValue: String(span.attrs[0]![1]) } },
                { key: 'http.route', value: { stringValue: String(span.attrs[1]![1]) } },
              ],
              ...(span.status === 'error' ? { status: { code: 2 } } : {}),
            })),
          },
        ],
        service,
      }))
      .map(({ service: _service, ...rest }) => rest),
  });
}

async function timedGet(url: string, headers: Record<string, string> = {}): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { headers });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return performance.now() - started;
}

function jaegerBinary(): string | undefined {
  const named = process.env.SVC_JAEGER_BIN;
  if (named !== undefined && named !== '') return named;
  const cached = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'svc-jaeger', 'v1.76.0', 'bin', 'jaeger');
  return existsSync(cached) ? cached : undefined;
}

/** The spans of traces [first, first + BATCH_TRACES), traces spread over the hour after firstNs. */
function batchOf(first: number, traces: number, firstNs: bigint): SpanRow[] {
  const stepNs = 3_500_000_000_000n / BigInt(traces);
  const batch: SpanRow[] = [];
  for (let t = first; t < Math.min(traces, first + BATCH_TRACES); t++) batch.push(...traceSpans(t, firstNs + BigInt(t) * stepNs));
  return batch;
}

/**
 * The child's job (`--prepare dataDir traces firstNs`): writes every span into svc's store in
 * dataDir, waits for the background merges after the bulk load to settle (as under a steady
 * stream; bounded), then closes the store so that `svc all-in-one` can open it.
 */
async function prepareSvcData(dataDir: string, traces: number, firstNs: bigint): Promise<void> {
  const store = await createStore({ clickhouse: { url: '', database: SVC_DATABASE }, embedded: { data_dir: dataDir } });
  try {
    await migrate(store);
    for (let first = 0; first < traces; first += BATCH_TRACES) await insertSpans(store, batchOf(first, traces, firstNs));
    let parts = -1;
    for (let settled = 0, waited = 0; settled < 5 && waited < 120; waited++) {
      const [row] = await store.query<{ n: string }>(
        "SELECT count() AS n FROM system.parts WHERE database = currentDatabase() AND table IN ('spans', 'trace_spans') AND active",
      );
      const now = Number(row?.n ?? 0);
      settled = now === parts ? settled + 1 : 0;
      parts = now;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    console.log(`jaeger-query svc's spans and trace_spans tables settled at ${parts} parts`);
  } finally {
    await store.close();
  }
}

/** Runs prepareSvcData in a child process (the store's engine never loads into the client's process). */
function prepareInChild(dataDir: string, traces: number, firstNs: bigint): { done: Promise<void>; kill: () => void } {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--prepare', dataDir, String(traces), firstNs.toString()], {
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`preparing svc's data failed: exit ${code ?? signal}`))));
  });
  return { done, kill: () => (child.exitCode === null && child.signalCode === null ? void child.kill('SIGTERM') : undefined) };
}

export async function main(argv: string[]): Promise<void> {
  const spans = Number(argv[0] ?? 1_000_000);
  const traces = Math.floor(spans / SPANS_PER_TRACE);
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-jaeger-'));
  const dataDir = join(dir, 'svc');
  const binary = jaegerBinary();
  // Traces over the last hour, newest last.
  const firstNs = BigInt(Date.now() - 3_600_000) * 1_000_000n;
  let jaeger: RunningJaeger | undefined;
  let svc: RunningAllInOne | undefined;
  let preparing: ReturnType<typeof prepareInChild> | undefined;
  try {
    if (binary !== undefined) jaeger = await startJaeger(binary, 'badger');
    const loadStarted = performance.now();
    preparing = prepareInChild(dataDir, traces, firstNs);
    // A failed child must not leave this loop's rejection unobserved: it is awaited below.
    preparing.done.catch(() => undefined);
    if (jaeger !== undefined) {
      for (let first = 0; first < traces; first += BATCH_TRACES) {
        const response = await fetch(jaeger.otlpTracesUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: otlpExport(batchOf(first, traces, firstNs)),
        });
        if (!response.ok) throw new Error(`Jaeger refused an export: ${response.status}`);
      }
      console.log(`jaeger-query Jaeger took the spans over OTLP in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`);
    }
    await preparing.done;
    console.log(
      `jaeger-query loaded ${traces * SPANS_PER_TRACE} spans in ${traces} traces into each: ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
    );
    svc = await startAllInOne({ dataDir });
    const last = traceIdOf(traces - 1);
    const svcUrl = `${svc.apiUrl}/jaeger`;
    await waitFor('svc to answer the last trace', async () => ((await fetch(`${svcUrl}/api/traces/${last}`)).ok ? true : undefined), 120_000);
    if (jaeger !== undefined) {
      const queryUrl = jaeger.queryUrl;
      await waitFor('Jaeger to hold the last trace', async () => ((await fetch(`${queryUrl}/api/traces/${last}`)).ok ? true : undefined), 300_000);
    }
    const startUs = (firstNs / 1000n).toString();
    const endUs = ((firstNs + 3_600_000_000_000n) / 1000n).toString();
    const targets = [{ name: 'svc', url: svcUrl }, ...(jaeger === undefined ? [] : [{ name: 'jaeger+badger', url: jaeger.queryUrl }])];
    const byId = new Map(targets.map((target) => [target.name, [] as number[]]));
    const search = new Map(targets.map((target) => [target.name, [] as number[]]));
    // Warm both, then interleave the same requests.
    for (const target of targets) await timedGet(`${target.url}/api/traces/${traceIdOf(0)}`);
    const loadBefore = loadavg()[0]!;
    for (let run = 0; run < RUNS; run++) {
      const traceId = traceIdOf(Math.floor((run * 7_919) % traces));
      const service = `service-${run % SERVICES}`;
      for (const target of targets) {
        byId.get(target.name)!.push(await timedGet(`${target.url}/api/traces/${traceId}`));
        search.get(target.name)!.push(await timedGet(`${target.url}/api/traces?service=${service}&limit=20&start=${startUs}&end=${endUs}`));
      }
    }
    const loadAfter = loadavg()[0]!;
    for (const target of targets) {
      console.log(
        `jaeger-query ${target.name} GET /api/traces/{id} p95 ${p95(byId.get(target.name)!).toFixed(1)} ms (median ${median(byId.get(target.name)!).toFixed(1)}), GET /api/traces?service=&limit=20 p95 ${p95(search.get(target.name)!).toFixed(1)} ms (median ${median(search.get(target.name)!).toFixed(1)}) (${RUNS} each)`,
      );
    }
    if (jaeger === undefined) console.log('jaeger-query: Jaeger not built (bash scripts/jaeger/fetch.sh), svc only');
    console.log(`jaeger-query load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after`);
  } finally {
    preparing?.kill();
    await preparing?.done.catch(() => undefined);
    await svc?.stop();
    await jaeger?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('jaeger-query.js')) {
  const argv = process.argv.slice(2);
  if (argv[0] === '--prepare') await prepareSvcData(argv[1]!, Number(argv[2]), BigInt(argv[3]!));
  else await main(argv);
}
