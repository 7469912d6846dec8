/**
 * Read routes over a full store (DESIGN §7 targets: story groups over 7 d and trace search over
 * 24 h at p95 <= 1 s with 10M spans stored). Rows are generated inside the engine (INSERT ...
 * SELECT FROM numbers), then each route is asked 20 times through createApi; one figure a line.
 * Usage: node dist/bench/story-routes.js [spans, default 10000000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { createStoryRoutes } from '../src/api/routes/story-routes.js';
import { createApi } from '../src/api/server.js';
import { createTraceRepo } from '../src/api/trace-repo.js';
import { createStore } from '../src/store/create-store.js';
import { migrate } from '../src/store/migrate.js';
import { createLogger } from '../src/util/log.js';

const SPANS_PER_TRACE = 20;
const RUNS = 20;
const SERVICES = 12;
const FINGERPRINTS = 2_000;

function p95(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)];
}

export async function main(argv: string[]): Promise<void> {
  const spans = Number(argv[0] ?? 10_000_000);
  const traces = Math.floor(spans / SPANS_PER_TRACE);
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-routes-'));
  const store = await createStore({ clickhouse: { url: '', database: 'svc_bench' }, embedded: { data_dir: join(dir, 'data') } });
  try {
    await migrate(store);
    const nowNs = BigInt(Date.now()) * 1_000_000n;
    const loadStarted = performance.now();
    // Spans over the last 3 days (their lifetime), 20 per trace, every 4th a server span, 2 % failing.
    await store.exec(
      `INSERT INTO spans (trace_id, span_id, parent_span_id, service_name, name, kind, status, status_message, start_ns, end_ns, attrs, resource, events, scope_name, scope_version)
       SELECT lower(hex(cityHash64(intDiv(number, ${SPANS_PER_TRACE})))) || leftPad(lower(hex(intDiv(number, ${SPANS_PER_TRACE}))), 16, '0') AS trace_id,
         lower(hex(number)), '', concat('service-', toString(number % ${SERVICES})), concat('op ', toString(number % 40)),
         if(number % 4 = 0, 'server', 'client'), if(number % 50 = 0, 'error', 'unset'), '',
         {now_ns:Int64} - toInt64(intDiv(number, ${SPANS_PER_TRACE})) * {trace_step_ns:Int64} AS s, s + 1000000 + (number % 97) * 100000,
         '[]', '[]', '[]', 'bench', '1'
       FROM numbers({spans:UInt64})`,
      { now_ns: nowNs, trace_step_ns: (3n * 86_400n * 1_000_000_000n) / BigInt(traces), spans },
    );
    // One summary per trace over the last 2 days (their lifetime).
    await store.exec(
      `INSERT INTO trace_summaries (trace_id, ts_ns, duration_ns, endpoint_service, endpoint_name, is_error, span_count, services, story_kind)
       SELECT lower(hex(cityHash64(number))) || lower(hex(number)), {now_ns:Int64} - toInt64(number) * {step_ns:Int64},
         1000000 + (number % 997) * 100000, concat('service-', toString(number % ${SERVICES})), concat('GET /route/', toString(number % 50)),
         number % 50 = 0, ${SPANS_PER_TRACE}, ['service-0', concat('service-', toString(number % ${SERVICES}))], if(number % 50 = 0, 'error', '')
       FROM numbers({traces:UInt64})`,
      { now_ns: nowNs, step_ns: (2n * 86_400n * 1_000_000_000n) / BigInt(traces), traces },
    );
    // Stories over 7 days: one per failing trace (2 %) plus slow ones, spread over many groups; a
    // realistic 2 KB story JSON each, which the group reads must not touch.
    const stories = Math.floor(traces / 10);
    await store.exec(
      `INSERT INTO stories (story_id, fingerprint, kind, ts_ns, duration_ns, endpoint_service, endpoint_name, rc_service, rc_span_name, summary, story, written_at_ms)
       SELECT lower(hex(cityHash64(number))) || lower(hex(number)), cityHash64(number % ${FINGERPRINTS}), if(number % 3 = 0, 'slow', 'error'),
         {now_ns:Int64} - toInt64(number) * {step_ns:Int64}, 1000000, concat('service-', toString(number % ${SERVICES})), 'GET /route',
         concat('service-', toString(number % 7)), 'charge', concat('service charge failed: card declined ', toString(number)),
         repeat(concat('{"story":', toString(number), '}'), 120), 1
       FROM numbers({stories:UInt64})`,
      { now_ns: nowNs, step_ns: (7n * 86_400n * 1_000_000_000n) / BigInt(stories), stories },
    );
    console.log(`load: ${spans} spans, ${traces} trace summaries, ${stories} stories in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`);

    const api = createApi(
      { listen: { host: '127.0.0.1', port: 0 }, queryTimeoutSecs: 15 },
      {
        traces: createTraceRepo(store, 15),
        registry: new Registry(),
        metricRegistries: [],
        logger: createLogger('silent'),
        routes: [createStoryRoutes(store)],
      },
    );
    await api.app.ready();
    const routes = [
      '/api/v1/story-groups?since=7d',
      '/api/v1/story-groups?since=1h',
      '/api/v1/traces/search?since=24h',
      '/api/v1/traces/search?since=24h&service=service-3&min_ms=50',
      '/api/v1/stories/series?since=7d',
      '/api/v1/overview?since=24h',
      '/api/v1/service-map?since=1h',
      '/api/v1/services/service-4?since=24h',
      '/api/v1/search?q=declined',
    ];
    // Trace by id (DESIGN §7: p95 <= 100 ms with 10M spans stored): 20 traces spread over the 3 days.
    const picks = Array.from({ length: RUNS }, (_, i) => Math.floor(((i + 0.5) / RUNS) * traces));
    const ids = await store.query<{ id: string }>(
      `SELECT lower(hex(cityHash64(k))) || leftPad(lower(hex(k)), 16, '0') AS id FROM (SELECT arrayJoin({picks:Array(UInt64)}) AS k)`,
      { picks },
    );
    const byIdSamples: number[] = [];
    for (const { id } of ids) {
      const started = performance.now();
      const response = await api.app.inject({ method: 'GET', url: `/api/v1/traces/${id}` });
      byIdSamples.push(performance.now() - started);
      if (response.statusCode !== 200) throw new Error(`trace ${id} answered ${response.statusCode}: ${response.body.slice(0, 200)}`);
    }
    console.log(
      `/api/v1/traces/{id} (${SPANS_PER_TRACE} spans each): p95 ${p95(byIdSamples).toFixed(0)} ms, median ${[...byIdSamples].sort((a, b) => a - b)[RUNS / 2].toFixed(0)} ms (target <= 100 ms)`,
    );
    for (const url of routes) {
      const samples: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const started = performance.now();
        const response = await api.app.inject({ method: 'GET', url });
        samples.push(performance.now() - started);
        if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}: ${response.body.slice(0, 200)}`);
      }
      console.log(`${url}: p95 ${p95(samples).toFixed(0)} ms, median ${[...samples].sort((a, b) => a - b)[RUNS / 2].toFixed(0)} ms`);
    }
    await api.close();
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('story-routes.js')) await main(process.argv.slice(2));
