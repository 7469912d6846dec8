/**
 * What the packed trace reads (trace_spans, migration 11) cost and save, on the jaeger-query
 * bench's spans (20-span traces over 12 services):
 * - read: where a by-id read's time goes, median and p95 over the same random traces: the engine's
 *   packed read alone (as getTracesSpans asks it), the same trace from the spans table's columns (the read before migration 11),
 *   getTracesSpans (packed read + parse), Jaeger's JSON built and written, and the whole HTTP
 *   answers of GET /jaeger/api/traces/{id} and svc's GET /api/v1/traces/{id}. Two more stages
 *   say what the HTTP answer adds: the HTTP exchange alone (GET /healthz) and getTracesSpans right
 *   after an HTTP exchange. The other reads follow another engine read; a read after other work
 *   (an HTTP exchange, or any pause, as every API read is) is slower on a loaded machine, and that,
 *   more than the HTTP path, is what the HTTP answer adds to `read`;
 * - storage: bytes on disk of spans and trace_spans per 1M spans, each merged to one part a day;
 * - insert: CPU µs per span of inserting into spans with trace_spans_mv attached and detached,
 *   alternating, medians over the rounds;
 * - upgrade: the wall time of migration 11's one-time copy of the stored spans, into a scratch table.
 * Usage: node dist/bench/trace-read-costs.js [spans, default 1000000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { toJaegerTrace } from '../src/api/jaeger/jaeger-trace.js';
import { createJaegerRoutes } from '../src/api/jaeger/routes.js';
import { createApi } from '../src/api/server.js';
import { createTraceRepo } from '../src/api/trace-repo.js';
import type { SpanRow } from '../src/model/signals.js';
import { createStore } from '../src/store/create-store.js';
import { oldestAllowedNs } from '../src/store/lifetimes.js';
import { migrate } from '../src/store/migrate.js';
import { migration0011 } from '../src/store/migrations/0011-trace-spans.js';
import { getTracesSpans } from '../src/store/spans.js';
import { insertSpans } from '../src/testing/store-rows.js';
import { createLogger } from '../src/util/log.js';
import { SPANS_PER_TRACE, traceIdOf, traceSpans } from './jaeger-query.js';

const RUNS = 200;
const BATCH_TRACES = 500;
const INSERT_ROUNDS = 7;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const p95 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? 0;
};

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

async function get(url: string): Promise<void> {
  const response = await fetch(url);
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
}

export async function main(argv: string[]): Promise<void> {
  const spans = Number(argv[0] ?? 1_000_000);
  const traces = Math.floor(spans / SPANS_PER_TRACE);
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-trace-reads-'));
  const store = await createStore({ clickhouse: { url: '', database: 'svc_bench_trace_reads' }, embedded: { data_dir: join(dir, 'data') } });
  const api = createApi(
    { listen: { host: '127.0.0.1', port: 0 }, queryTimeoutSecs: 30 },
    { traces: createTraceRepo(store, 30), registry: new Registry(), metricRegistries: [], logger: createLogger('silent'), routes: [createJaegerRoutes(store)] },
  );
  try {
    await migrate(store);
    await api.start();
    const firstNs = BigInt(Date.now() - 3_600_000) * 1_000_000n;
    const stepNs = 3_500_000_000_000n / BigInt(traces);
    const batchOf = (first: number, count: number): SpanRow[] => {
      const batch: SpanRow[] = [];
      for (let t = first; t < first + count; t++) batch.push(...traceSpans(t, firstNs + BigInt(t % traces) * stepNs));
      return batch;
    };
    for (let first = 0; first < traces; first += BATCH_TRACES) await insertSpans(store, batchOf(first, Math.min(BATCH_TRACES, traces - first)));

    // Insert cost: the same-sized batches (new traces) with the view attached, then detached.
    const withView: number[] = [];
    const withoutView: number[] = [];
    let next = traces;
    for (let round = 0; round < INSERT_ROUNDS; round++) {
      for (const attached of [true, false]) {
        if (!attached) await store.exec('DETACH TABLE trace_spans_mv');
        const batch = batchOf(next, BATCH_TRACES);
        next += BATCH_TRACES;
        const before = cpuMs();
        await insertSpans(store, batch);
        (attached ? withView : withoutView).push(((cpuMs() - before) * 1000) / batch.length);
        if (!attached) await store.exec('ATTACH TABLE trace_spans_mv');
      }
    }
    const loadInsert = loadavg()[0]!;
    console.log(
      `trace-read-costs insert into spans: ${median(withView).toFixed(1)} µs CPU/span with trace_spans_mv, ${median(withoutView).toFixed(1)} without (+${(median(withView) - median(withoutView)).toFixed(1)}; medians of ${INSERT_ROUNDS} rounds of ${BATCH_TRACES * SPANS_PER_TRACE} spans; load ${loadInsert.toFixed(2)})`,
    );

    await store.exec('CREATE TABLE trace_spans_copy AS trace_spans');
    const copy = migration0011.statements.at(-1)!.replace('INSERT INTO trace_spans ', 'INSERT INTO trace_spans_copy ');
    const copyMs = await timed(() => store.exec(copy));
    const [copied] = await store.query<{ n: string }>('SELECT count() AS n FROM trace_spans_copy');
    console.log(
      `trace-read-costs upgrade copy (migration 11): ${((copyMs / Number(copied?.n ?? 1)) * 1e3).toFixed(2)} s per 1M spans (${copied?.n} spans in ${(copyMs / 1000).toFixed(1)} s; load ${loadavg()[0]!.toFixed(2)})`,
    );
    await store.exec('DROP TABLE trace_spans_copy');
    for (const table of ['spans', 'trace_spans']) await store.exec(`OPTIMIZE TABLE ${table} FINAL`);
    const sizes = await store.query<{ table: string; bytes: string; rows: string }>(
      "SELECT table, sum(bytes_on_disk) AS bytes, sum(rows) AS rows FROM system.parts WHERE database = currentDatabase() AND active AND table IN ('spans', 'trace_spans') GROUP BY table ORDER BY table",
    );
    for (const size of sizes) {
      const perMillion = (Number(size.bytes) / Number(size.rows)) * 1e6;
      console.log(`trace-read-costs storage ${size.table}: ${(perMillion / 2 ** 20).toFixed(1)} MiB per 1M spans (${size.rows} rows, merged)`);
    }

    const nowMs = Date.now();
    const oldest = oldestAllowedNs('spans', nowMs);
    const stages: Record<string, number[]> = {
      engine_packed: [],
      engine_columns: [],
      read: [],
      jaeger_json: [],
      http_healthz: [],
      read_after_http: [],
      http_jaeger: [],
      http_svc: [],
    };
    const base = `http://127.0.0.1:${api.port()}`;
    const loadBefore = loadavg()[0]!;
    for (let run = 0; run < RUNS; run++) {
      const traceId = traceIdOf(Math.floor((run * 7_919) % traces));
      stages.engine_packed!.push(await timed(() => store.query('SELECT packed FROM trace_spans WHERE trace_id = {t:String}', { t: traceId })));
      stages.engine_columns!.push(
        await timed(() =>
          store.query(
            `SELECT trace_id, span_id, parent_span_id, service_name, name, kind, status, status_message, start_ns, end_ns, attrs, resource, events, scope_name, scope_version, links
             FROM spans WHERE trace_id = {t:String} AND start_ns >= {o:Int64}`,
            { t: traceId, o: oldest },
          ),
        ),
      );
      let rows: SpanRow[] = [];
      stages.read!.push(
        await timed(async () => {
          rows = await getTracesSpans(store, [traceId], { nowMs, withLinks: true, maxSpans: 10_001 });
        }),
      );
      stages.jaeger_json!.push(await timed(async () => JSON.stringify({ data: [toJaegerTrace(traceId, rows)], total: 0, limit: 0, offset: 0, errors: null })));
      stages.http_healthz!.push(await timed(() => get(`${base}/healthz`)));
      stages.read_after_http!.push(await timed(() => getTracesSpans(store, [traceId], { nowMs, withLinks: true, maxSpans: 10_001 })));
      await get(`${base}/healthz`);
      stages.http_jaeger!.push(await timed(() => get(`${base}/jaeger/api/traces/${traceId}`)));
      stages.http_svc!.push(await timed(() => get(`${base}/api/v1/traces/${traceId}`)));
    }
    const loadAfter = loadavg()[0]!;
    for (const [stage, samples] of Object.entries(stages)) {
      console.log(`trace-read-costs ${stage}: median ${median(samples).toFixed(2)} ms, p95 ${p95(samples).toFixed(2)} ms (${RUNS} traces)`);
    }
    console.log(`trace-read-costs load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after the reads`);
  } finally {
    await api.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('trace-read-costs.js')) await main(process.argv.slice(2));
