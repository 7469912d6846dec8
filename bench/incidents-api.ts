/**
 * GET /api/v1/incidents over an hour of 10k spans/s + 10k logs/s (issue target: p95 <= 1 s).
 * The route reads only the per-minute tables and the stories, so those are generated inside the
 * engine (INSERT ... SELECT FROM numbers) with the rows that load leaves before merges: the
 * assembler and the logminer flush once a second, so each key has up to 60 rows a minute.
 * 75 minutes: 25 services x 8 operations, 60 calls x 3 operations, 300 of 2,000 templates hit
 * each second, 1 % of 500 traces/s failing into 200 story groups. Then the route is asked 20
 * times for each window through createApi; one figure a line.
 * Usage: node dist/bench/incidents-api.js
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { Registry } from 'prom-client';
import { createStoryRoutes } from '../src/api/routes/story-routes.js';
import { createApi } from '../src/api/server.js';
import { createTraceRepo } from '../src/api/trace-repo.js';
import { createStore } from '../src/store/create-store.js';
import { migrate } from '../src/store/migrate.js';
import { createLogger } from '../src/util/log.js';
import type { Store } from '../src/model/store.js';

const RUNS = 20;
const MINUTES = 75;
const SERVICES = 25;
const OPS_PER_SERVICE = 8;
const CALL_KEYS = 180;
const TEMPLATES = 2_000;
const TEMPLATES_PER_SECOND = 300;
const STORIES_PER_SECOND = 5;
const GROUPS = 200;

function p95(samples: number[]): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)] ?? 0;
}

/** Fills a migrated store with the tables' content (see the file comment). */
export async function loadIncidentTables(store: Store): Promise<void> {
  const nowS = Math.floor(Date.now() / 1000);
  const firstSecond = nowS - MINUTES * 60;
  const seconds = MINUTES * 60;
  const loadStarted = performance.now();
  await store.exec(
    `INSERT INTO op_minutes (minute, service, operation, calls, errors, origin_errors, self_ns_sum, duration_ns_sum)
       SELECT toStartOfMinute(toDateTime({first:UInt32} + intDiv(number, {keys:UInt32}))), concat('service-', toString(number % {keys:UInt32} % ${SERVICES})),
         concat('op ', toString(intDiv(number % {keys:UInt32}, ${SERVICES}))), 2 + number % 7, number % 97 = 0, number % 193 = 0,
         (2 + number % 7) * (3000000 + number % 1000 * 1000), (2 + number % 7) * (9000000 + number % 1000 * 3000)
       FROM numbers({rows:UInt64})`,
    { first: firstSecond, keys: SERVICES * OPS_PER_SERVICE, rows: seconds * SERVICES * OPS_PER_SERVICE },
  );
  await store.exec(
    `INSERT INTO call_minutes (minute, caller, callee, operation, peer, calls, errors, origin_errors, client_ns_sum, wire_ns_sum, served_calls, server_ns_sum)
       SELECT toStartOfMinute(toDateTime({first:UInt32} + intDiv(number, {keys:UInt32}))), concat('service-', toString(number % {keys:UInt32} % ${SERVICES})),
         concat('service-', toString((number % {keys:UInt32} * 7 + 1) % ${SERVICES})), concat('GET /op', toString(number % {keys:UInt32} % 3)),
         concat('service-', toString((number % {keys:UInt32} * 7 + 1) % ${SERVICES}), ':8080'), 3, number % 101 = 0, number % 211 = 0,
         3 * 9000000, 3 * 1000000, 3, 3 * 8000000
       FROM numbers({rows:UInt64})`,
    { first: firstSecond, keys: CALL_KEYS, rows: seconds * CALL_KEYS },
  );
  await store.exec(
    `INSERT INTO template_minutes (service, template_id, minute, hits)
       SELECT concat('service-', toString(t % ${SERVICES})), t, intDiv({first:UInt32} + intDiv(number, ${TEMPLATES_PER_SECOND}), 60), 1 + number % 60
       FROM (SELECT number, cityHash64(number) % ${TEMPLATES} AS t FROM numbers({rows:UInt64}))`,
    { first: firstSecond, rows: seconds * TEMPLATES_PER_SECOND },
  );
  await store.exec(
    `INSERT INTO templates (template_id, service, template, count, first_seen_ns, last_seen_ns, max_severity, sample, masking_version, updated_at_ms)
       SELECT number, concat('service-', toString(number % ${SERVICES})), concat('request <*> handled in <*> ms by worker ', toString(number)), 1000,
         toInt64({first:UInt32}) * 1000000000, toInt64({now:UInt32}) * 1000000000, 9, 'sample', 1, 1
       FROM numbers(${TEMPLATES})`,
    { first: firstSecond, now: nowS },
  );
  const stories = seconds * STORIES_PER_SECOND;
  await store.exec(
    `INSERT INTO stories (story_id, fingerprint, kind, ts_ns, duration_ns, endpoint_service, endpoint_name, rc_service, rc_span_name, summary, story, written_at_ms)
       SELECT lower(hex(cityHash64(number))) || lower(hex(number)), cityHash64(number % ${GROUPS}), if(number % 3 = 0, 'slow', 'error'),
         (toInt64({first:UInt32}) * 1000000000) + toInt64(number) * 200000000, 1000000, 'gateway', 'GET /*',
         concat('service-', toString(number % ${GROUPS} % ${SERVICES})), 'charge', concat('charge failed: card declined ', toString(number)),
         concat('{"root_cause":{"span_kind":"server"},"pad":"', repeat('x', 2000), '"}'), 1
       FROM numbers({stories:UInt64})`,
    { first: firstSecond, stories },
  );
  console.log(
    `load: ${MINUTES} min of op, call and template minutes as 10k spans/s + 10k logs/s leave them unmerged, ${stories} stories, in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
  );
}

export async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'svc-bench-incidents-'));
  const store = await createStore({ clickhouse: { url: '', database: 'svc_bench' }, embedded: { data_dir: join(dir, 'data') } });
  try {
    await migrate(store);
    await loadIncidentTables(store);

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
    for (const url of ['/api/v1/incidents', '/api/v1/incidents?service=service-3', '/api/v1/incidents?since=1h']) {
      const samples: number[] = [];
      for (let run = 0; run < RUNS; run++) {
        const started = performance.now();
        const response = await api.app.inject({ method: 'GET', url });
        samples.push(performance.now() - started);
        if (response.statusCode !== 200) throw new Error(`${url} answered ${response.statusCode}: ${response.body.slice(0, 200)}`);
      }
      const median = [...samples].sort((a, b) => a - b)[RUNS / 2] ?? 0;
      console.log(
        `${url}: p95 ${p95(samples).toFixed(0)} ms, median ${median.toFixed(0)} ms (target p95 <= 1000 ms; load average ${loadavg()[0]?.toFixed(1)})`,
      );
    }
    await api.close();
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1]?.endsWith('incidents-api.js')) await main();
