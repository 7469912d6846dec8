/**
 * The log search benchmark's data set: `logs` logs over the 24 h before the load, generated inside
 * the engine (INSERT ... SELECT FROM numbers) in batches of a million, as the writer's inserts make
 * many parts rather than one. 12 services, bodies from a small vocabulary with a rare phrase in
 * 0.1 % of lines, a third of the lines with trace context, and a template hit per 1200th line.
 *
 * Building 10M logs takes minutes, so the data dir is kept in the temp dir and reused by later runs:
 * its name carries the schema version and the generator version, so a new migration or a changed
 * generator builds a fresh one. The load's clock is saved with it and the routes are asked with
 * that clock, so a reused set is read over the same 24 h. A set older than MAX_REUSE_MS is rebuilt
 * (the logs' 3-day lifetime would start dropping its oldest day).
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '../src/model/store.js';
import { createStore } from '../src/store/create-store.js';
import { migrate } from '../src/store/migrate.js';
import { MIGRATIONS } from '../src/store/migrations/index.js';

/** Bump when the generated rows change, so cached sets of the old generator are not reused. */
const GENERATOR_VERSION = 1;
const SERVICES = 12;
const INSERT_BATCH = 1_000_000;
const MAX_REUSE_MS = 24 * 3600 * 1000;
/** Background merges settle within this after a load (or the run goes on, said so). */
const SETTLE_TIMEOUT_MS = 15 * 60 * 1000;
export const TEMPLATE_ID = '777';
export const TEMPLATE_SERVICE = 'service-3';

export interface LogBenchData {
  store: Store;
  /** The load's clock: the newest log is stamped here. */
  nowMs: number;
  /** How the data dir was obtained, for the printed header. */
  origin: string;
  close(): Promise<void>;
}

const CACHE_ROOT = join(tmpdir(), 'svc-bench-logs-cache');

function cacheDir(logs: number, schema: number): string {
  return join(CACHE_ROOT, `schema${schema}-gen${GENERATOR_VERSION}-${logs}`);
}

/** Step between two generated logs' stamps: `logs` logs spread over the 24 h before the load's clock. */
function stepNsOf(logs: number): bigint {
  return (86_400n * 1_000_000_000n) / BigInt(logs);
}

/**
 * Inserts generated logs number `offset` to `offset + count - 1` of a set of `logs` (number 0 is the
 * newest, stamped at `nowMs`) into `table`, a table with the logs table's columns (a constant name
 * of the caller, never input). Other benchmarks reuse the generator in their own batches.
 */
export async function insertGeneratedLogs(store: Store, table: string, logs: number, nowMs: number, offset: number, count: number): Promise<void> {
  await store.exec(
    `INSERT INTO ${table} (log_id, ts_ns, observed_ts_ns, trace_id, span_id, service_name, severity_number, severity_text, body, attrs, resource, scope_name, scope_version)
       SELECT cityHash64(number) AS id, {now_ns:Int64} - toInt64(number) * {step_ns:Int64} AS ts, ts,
         if(number % 3 = 0, lower(hex(cityHash64(intDiv(number, 10)))) || leftPad(lower(hex(intDiv(number, 10))), 16, '0'), ''), if(number % 3 = 0, lower(hex(number)), ''),
         concat('service-', toString(number % ${SERVICES})),
         multiIf(number % 50 = 0, 17, number % 20 = 0, 13, 9), multiIf(number % 50 = 0, 'ERROR', number % 20 = 0, 'WARN', 'INFO'),
         if(number % 1000 = 7, concat('payment gateway unreachable for order ', toString(number)),
            concat(['GET', 'POST', 'PUT', 'cache', 'queue', 'worker'][number % 6 + 1], ' ', ['/api/cart', '/api/order', 'refresh', 'flush', 'batch done', 'user session'][intDiv(number, 6) % 6 + 1],
                   ' in ', toString(number % 997), ' ms ', ['ok', 'retry', 'timeout after 3 attempts', 'status 200', 'status 404', 'slow'][intDiv(number, 36) % 6 + 1], ' id=', hex(cityHash64(number + 1)))),
         concat('[["http.status_code",', toString(200 + number % 5), '],["thread","t-', toString(number % 16), '"]]'), '[["host.name","node-1"]]', 'bench', '1'
       FROM numbers({offset:UInt64}, {count:UInt64})`,
    { now_ns: BigInt(nowMs) * 1_000_000n, step_ns: stepNsOf(logs), offset, count },
  );
}

/** The template's hits of a generated set: lines of service-3 (number % 12 = 3), one per 1200th line. */
export async function insertGeneratedTemplateHits(store: Store, logs: number, nowMs: number): Promise<void> {
  const nowNs = BigInt(nowMs) * 1_000_000n;
  const stepNs = stepNsOf(logs);
  await store.exec(
    `INSERT INTO template_hits (ts_ns, template_id, service, log_id, trace_id, span_id, severity_number)
     SELECT {now_ns:Int64} - toInt64(number) * {step_ns:Int64}, {template_id:UInt64}, {service:String}, cityHash64(number), '', '', 9
     FROM numbers({logs:UInt64}) WHERE number % 1200 = 3`,
    { now_ns: nowNs, step_ns: stepNs, logs, template_id: TEMPLATE_ID, service: TEMPLATE_SERVICE },
  );
}

async function load(store: Store, logs: number, nowMs: number): Promise<void> {
  for (let offset = 0; offset < logs; offset += INSERT_BATCH) {
    await insertGeneratedLogs(store, 'logs', logs, nowMs, offset, Math.min(INSERT_BATCH, logs - offset));
  }
  await insertGeneratedTemplateHits(store, logs, nowMs);
}

/** Waits until no merge or mutation of the logs table runs; false when SETTLE_TIMEOUT_MS passed first. */
async function settle(store: Store): Promise<boolean> {
  const deadline = Date.now() + SETTLE_TIMEOUT_MS;
  for (;;) {
    const [row = { busy: '1' }] = await store.query<{ busy: string }>(
      `SELECT (SELECT count() FROM system.merges WHERE database = currentDatabase() AND table = 'logs')
            + (SELECT count() FROM system.mutations WHERE database = currentDatabase() AND table = 'logs' AND NOT is_done) AS busy`,
    );
    if (Number(row.busy) === 0) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/**
 * Removes other sets loaded more than MAX_REUSE_MS ago (none would be reused). Newer ones are left:
 * another checkout with another schema version may be using its own right now.
 */
function removeStaleSets(keep: string): void {
  if (!existsSync(CACHE_ROOT)) return;
  for (const name of readdirSync(CACHE_ROOT)) {
    const other = join(CACHE_ROOT, name);
    if (other === keep) continue;
    const readyFile = join(other, 'ready.json');
    // A set without ready.json may be loading in another process: its directory's age counts then.
    const loadedMs = existsSync(readyFile) ? (JSON.parse(readFileSync(readyFile, 'utf8')) as { nowMs: number }).nowMs : statSync(other).mtimeMs;
    if (Date.now() - loadedMs > MAX_REUSE_MS) rmSync(other, { recursive: true, force: true });
  }
}

/** Opens the cached data set of `logs` logs under the current schema, building it when missing or stale. */
export async function openLogBenchData(logs: number): Promise<LogBenchData> {
  const schema = Math.max(...MIGRATIONS.map((m) => m.version));
  const dir = cacheDir(logs, schema);
  const readyFile = join(dir, 'ready.json');
  let ready: { nowMs: number } | undefined;
  if (existsSync(readyFile)) {
    const saved = JSON.parse(readFileSync(readyFile, 'utf8')) as { nowMs: number };
    if (Date.now() - saved.nowMs < MAX_REUSE_MS) ready = saved;
  }
  removeStaleSets(dir);
  if (ready === undefined) rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const store = await createStore({ clickhouse: { url: '', database: 'svc_bench_logs' }, embedded: { data_dir: join(dir, 'data') } });
  const close = () => store.close();
  try {
    await migrate(store);
    if (ready !== undefined) {
      const settled = await settle(store);
      return {
        store,
        nowMs: ready.nowMs,
        origin: `reused ${dir} (loaded ${new Date(ready.nowMs).toISOString()})${settled ? '' : '; merges still running'}`,
        close,
      };
    }
    const nowMs = Date.now();
    const started = performance.now();
    await load(store, logs, nowMs);
    const loadedSecs = (performance.now() - started) / 1000;
    const settled = await settle(store);
    const settledSecs = (performance.now() - started) / 1000 - loadedSecs;
    writeFileSync(readyFile, JSON.stringify({ nowMs }));
    return {
      store,
      nowMs,
      origin: `built ${dir}: ${logs} logs in ${loadedSecs.toFixed(0)} s, merges settled ${settled ? `after ${settledSecs.toFixed(0)} s more` : 'NOT within 15 min'}`,
      close,
    };
  } catch (err) {
    await store.close();
    throw err;
  }
}
