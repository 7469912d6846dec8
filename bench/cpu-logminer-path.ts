/**
 * CPU per log of the logminer's own work on the main thread, in-process and without the bus or the
 * store: decoding the logs topic's records (the ingest-e2e payloads, one record per service of each
 * 500-log export), mining them into the live templates and queueing their hits and minute counts
 * for the flusher (which is never flushed here). CPU time of this process, garbage collection
 * included. One build per process: run it for this build and a base alternately, e.g.
 *   for i in 1 2 3; do node dist/bench/cpu-logminer-path.js; SVC_BENCH_CPU_BASE=/tmp/base node dist/bench/cpu-logminer-path.js; done
 *   SVC_BENCH_CPU_BASE    a checkout of an older build to measure instead of this one
 *   SVC_BENCH_CPU_ROUNDS  rounds of 100 exports (default 15)
 */
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Registry } from 'prom-client';
import type { LogminerSettings } from '../src/config/settings.js';
import type { createLogIntake as CreateLogIntake } from '../src/logminer/log-intake.js';
import type { createLogminerMetrics as CreateLogminerMetrics } from '../src/logminer/metrics.js';
import type { createMiningEngine as CreateMiningEngine } from '../src/logminer/mining-engine.js';
import type { createTemplateMiner as CreateTemplateMiner } from '../src/logminer/template-miner.js';
import type { Flusher as FlusherClass } from '../src/logminer/flusher.js';
import type { LiveState as LiveStateClass } from '../src/logminer/live-state.js';
import { SIGNAL_HEADER, type BusRecord } from '../src/model/bus.js';
import type { LogRow } from '../src/model/signals.js';
import type { Store } from '../src/model/store.js';
import { encodeLogsData } from '../src/otlp/encode-logs.js';
import { createLogger } from '../src/util/log.js';
import { logBatch } from './ingest-e2e.js';

const EXPORTS_PER_ROUND = 100;
/** Bus batches as the logminer sees them at 10k logs/s: a few exports' records each. */
const RECORDS_PER_BATCH = 10;
/** 5000 logs: the flusher's default max_batch. */
const RECORDS_PER_FLUSH = 50;
const SETTINGS: Pick<LogminerSettings, 'sim_threshold' | 'max_clusters_per_service' | 'keep_http_status' | 'fingerprinter'> = {
  sim_threshold: 0.5,
  max_clusters_per_service: 5_000,
  keep_http_status: true,
  fingerprinter: 'scalar',
};

interface LogminerPath {
  createLogIntake: typeof CreateLogIntake;
  createLogminerMetrics: typeof CreateLogminerMetrics;
  createMiningEngine: typeof CreateMiningEngine;
  createTemplateMiner: typeof CreateTemplateMiner;
  Flusher: typeof FlusherClass;
  LiveState: typeof LiveStateClass;
}

async function load(distSrc: string): Promise<LogminerPath> {
  const from = async <T>(path: string) => (await import(pathToFileURL(join(distSrc, path)).href)) as T;
  return {
    ...(await from<{ createLogIntake: typeof CreateLogIntake }>('logminer/log-intake.js')),
    ...(await from<{ createLogminerMetrics: typeof CreateLogminerMetrics }>('logminer/metrics.js')),
    ...(await from<{ createMiningEngine: typeof CreateMiningEngine }>('logminer/mining-engine.js')),
    ...(await from<{ createTemplateMiner: typeof CreateTemplateMiner }>('logminer/template-miner.js')),
    ...(await from<{ Flusher: typeof FlusherClass }>('logminer/flusher.js')),
    ...(await from<{ LiveState: typeof LiveStateClass }>('logminer/live-state.js')),
  };
}

/** The logs topic's records of `exports` exports: one per service of each, as ingest keys them. */
function logsTopicRecords(nowNs: bigint, exports: number): BusRecord[] {
  const records: BusRecord[] = [];
  for (let e = 0; e < exports; e++) {
    const byService = new Map<string, LogRow[]>();
    for (const log of logBatch(nowNs + BigInt(e) * 1_000_000n, e)) {
      const logs = byService.get(log.serviceName);
      if (logs === undefined) byService.set(log.serviceName, [log]);
      else logs.push(log);
    }
    for (const [service, logs] of byService)
      records.push({
        topic: 'svc-logs',
        partition: 0,
        offset: BigInt(records.length),
        key: service,
        value: encodeLogsData(logs),
        headers: { [SIGNAL_HEADER]: 'logs' },
        timestampMs: 0,
      });
  }
  return records;
}

/** CPU µs per log over one round: every record through intake and mining, in bus batches of RECORDS_PER_BATCH. */
async function round(path: LogminerPath, records: BusRecord[], logs: number, nowMs: () => number): Promise<number> {
  const metrics = path.createLogminerMetrics(new Registry(), { dataLagSecs: () => 0 });
  const logger = createLogger('error');
  const state = new path.LiveState(67, 3_600_000);
  const engine = path.createMiningEngine(SETTINGS);
  const intake = path.createLogIntake({ logger, metrics });
  const start = process.cpuUsage();
  for (let i = 0; i < records.length; i += RECORDS_PER_FLUSH) {
    // A fresh flusher stands for one that stored its queue (max_batch 5000 hits by default).
    const flusher = new path.Flusher({ store: {} as Store, maxBatch: 5_000, flushMs: 1_000, templateRows: () => [], onFailure: () => {} });
    const mine = path.createTemplateMiner({ engine, state, flusher, metrics, nowMs });
    for (let j = i; j < Math.min(records.length, i + RECORDS_PER_FLUSH); j += RECORDS_PER_BATCH)
      await mine(intake(records.slice(j, j + RECORDS_PER_BATCH), nowMs()));
  }
  const used = process.cpuUsage(start);
  await engine.close();
  return (used.user + used.system) / logs;
}

export async function main(): Promise<void> {
  const base = process.env.SVC_BENCH_CPU_BASE;
  const rounds = Number(process.env.SVC_BENCH_CPU_ROUNDS ?? 15);
  const label = base === undefined ? 'this build' : `base ${base}`;
  const path = await load(base === undefined ? new URL('../src/', import.meta.url).pathname : join(base, 'dist', 'src'));
  const nowMs = Date.now();
  const records = logsTopicRecords(BigInt(nowMs) * 1_000_000n, EXPORTS_PER_ROUND);
  const logs = EXPORTS_PER_ROUND * logBatch(0n, 0).length;
  await round(path, records, logs, () => nowMs); // warm-up
  const micros: number[] = [];
  for (let r = 0; r < rounds; r++) micros.push(await round(path, records, logs, () => nowMs));
  const sorted = [...micros].sort((a, b) => a - b);
  console.log(
    `cpu logminer path [${label}]: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} (best ${sorted[0]!.toFixed(2)}) µs of CPU per log (decode, mine, hits queued; ${EXPORTS_PER_ROUND} exports of 500 logs a round; rounds ${sorted.map((v) => v.toFixed(2)).join(', ')}); load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
