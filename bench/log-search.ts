/**
 * Log search routes over a full logs table (issue target: /api/v1/logs/search p95 <= 300 ms and
 * /api/v1/logs/series p95 <= 500 ms over 24 h with 10M logs stored; text query, service filter and
 * both). Logs are generated inside the engine (INSERT ... SELECT FROM numbers) over the last 24 h,
 * 12 services, bodies from a small vocabulary with a rare phrase in 0.1 % of lines, and a template
 * hit per 100th line; then each route is asked 20 times through createApi; one figure a line.
 * Usage: node dist/bench/log-search.js [logs, default 10000000] [search|series: only that route]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { createLogRoutes } from '../src/api/routes/log-routes.js';
import { createApi } from '../src/api/server.js';
import { createTraceRepo } from '../src/cli/store-adapters.js';
import { createStore } from '../src/store/create-store.js';
import { migrate } from '../src/store/migrate.js';
import { createLogger } from '../src/util/log.js';

const RUNS = 20;
const SERVICES = 12;
const INSERT_BATCH = 1_000_000;

function p95(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)];
}

export async function main(argv: string[]): Promise<void> {
  const logs = Number(argv[0] ?? 10_000_000);
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-logs-'));
  const store = await createStore({ clickhouse: { url: '', database: 'svc_bench_logs' }, embedded: { data_dir: join(dir, 'data') } });
  try {
    await migrate(store);
    const nowNs = BigInt(Date.now()) * 1_000_000n;
    const stepNs = (86_400n * 1_000_000_000n) / BigInt(logs);
    const loadStarted = performance.now();
    // In batches of a million, as the writer's inserts make many parts rather than one.
    for (let offset = 0; offset < logs; offset += INSERT_BATCH) {
      await store.exec(
        `INSERT INTO logs (log_id, ts_ns, observed_ts_ns, trace_id, span_id, service_name, severity_number, severity_text, body, attrs, resource, scope_name, scope_version)
         SELECT cityHash64(number) AS id, {now_ns:Int64} - toInt64(number) * {step_ns:Int64} AS ts, ts,
           if(number % 3 = 0, lower(hex(cityHash64(intDiv(number, 10)))) || leftPad(lower(hex(intDiv(number, 10))), 16, '0'), ''), if(number % 3 = 0, lower(hex(number)), ''),
           concat('service-', toString(number % ${SERVICES})),
           multiIf(number % 50 = 0, 17, number % 20 = 0, 13, 9), multiIf(number % 50 = 0, 'ERROR', number % 20 = 0, 'WARN', 'INFO'),
           if(number % 1000 = 7, concat('payment gateway unreachable for order ', toString(number)),
              concat(['GET', 'POST', 'PUT', 'cache', 'queue', 'worker'][number % 6 + 1], ' ', ['/api/cart', '/api/order', 'refresh', 'flush', 'batch done', 'user session'][intDiv(number, 6) % 6 + 1],
                     ' in ', toString(number % 997), ' ms ', ['ok', 'retry', 'timeout after 3 attempts', 'status 200', 'status 404', 'slow'][intDiv(number, 36) % 6 + 1], ' id=', hex(cityHash64(number + 1)))),
           concat('[["http.status_code",', toString(200 + number % 5), '],["thread","t-', toString(number % 16), '"]]'), '[["host.name","node-1"]]', 'bench', '1'
         FROM numbers({offset:UInt64}, {count:UInt64})`,
        { now_ns: nowNs, step_ns: stepNs, offset, count: Math.min(INSERT_BATCH, logs - offset) },
      );
    }
    // A template with a hit per 100th line of service-3 (its lines are number % 12 = 3).
    await store.exec(
      `INSERT INTO template_hits (ts_ns, template_id, service, log_id, trace_id, span_id, severity_number)
       SELECT {now_ns:Int64} - toInt64(number) * {step_ns:Int64}, 777, 'service-3', cityHash64(number), '', '', 9
       FROM numbers({logs:UInt64}) WHERE number % 1200 = 3`,
      { now_ns: nowNs, step_ns: stepNs, logs },
    );
    console.log(`load: ${logs} logs over 24 h in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`);

    const api = createApi(
      { listen: { host: '127.0.0.1', port: 0 }, queryTimeoutSecs: 30 },
      { traces: createTraceRepo(store, 30), registry: new Registry(), metricRegistries: [], logger: createLogger('silent'), routes: [createLogRoutes(store)] },
    );
    await api.app.ready();
    const filters = ['', 'q=timeout', 'q=gateway%20unreachable', 'service=service-3', 'service=service-3&q=gateway%20unreachable', 'severity=error', 'template_id=777'];
    const only = argv[1];
    const urls = filters
      .flatMap((f) => [`/api/v1/logs/search?since=24h${f === '' ? '' : `&${f}`}`, `/api/v1/logs/series?since=24h${f === '' ? '' : `&${f}`}`])
      .filter((url) => only === undefined || url.includes(`/logs/${only}?`));
    for (const url of urls) {
      const samples: number[] = [];
      let rows = 0;
      for (let run = 0; run < RUNS; run++) {
        const started = performance.now();
        const response = await api.app.inject({ method: 'GET', url });
        samples.push(performance.now() - started);
        if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}: ${response.body.slice(0, 200)}`);
        const body = JSON.parse(response.body) as { logs?: unknown[]; total?: number };
        rows = body.logs?.length ?? body.total ?? 0;
      }
      console.log(`${url}: p95 ${p95(samples).toFixed(0)} ms, median ${[...samples].sort((a, b) => a - b)[RUNS / 2].toFixed(0)} ms (${url.includes('/series') ? 'total' : 'rows'} ${rows})`);
    }
    await api.close();
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('log-search.js')) await main(process.argv.slice(2));
