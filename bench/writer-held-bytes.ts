/**
 * What the writer holds while it batches, at a steady load through its real parts: the threaded
 * payload encoder, the Batcher with the contract's max_rows and max_age_ms, and chDB inserts into a
 * migrated store. Deliveries arrive as the bus hands them over at load (one export's records each,
 * 500 spans or 500 logs, paced to the rate), not waited on one by one. Sampled every 20 ms:
 * the bytes of the process's ArrayBuffers (payloads waiting, being inserted, or dead but not yet
 * collected: the Batcher's share of the anonymous memory); also the main thread's and the encoder
 * thread's CPU per item. Each round runs in a fresh process loading one build only, alternating.
 *   SVC_BENCH_CPU_BASE      a checkout of an older build: measured alternately with this one
 *   SVC_BENCH_CPU_ROUNDS    rounds per build (default 3)
 *   SVC_BENCH_WRITER_SECS   seconds of load a round (default 15)
 *   SVC_BENCH_WRITER_RATE   items/s per signal (default 10000)
 *   SVC_BENCH_WRITER_CHURN  small objects made every 10 ms beside the writer, standing in for the
 *                           rest of the main thread's garbage (default 20000; 0 for the writer alone)
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BusMessage, BusRecord } from '../src/model/bus.js';
import type { Store } from '../src/model/store.js';
import { otlpCodec } from '../src/cli/codec.js';
import { buildLogRecords, buildSpanRecords } from '../src/ingest/records.js';
import type { Batcher as BatcherClass, SignalSink } from '../src/writer/batcher.js';
import type { createPayloadEncoder as CreatePayloadEncoder } from '../src/writer/payload-encoder.js';
import { encodeLogsData } from '../src/otlp/encode-logs.js';
import { encodeTracesData } from '../src/otlp/encode-traces.js';
import { logBatch, spanBatch } from './ingest-e2e.js';
import { ownThreadId, ownThreadRunNs } from './thread-cpu.js';

const MAX_RECORD_BYTES = 1 << 20;
/** Distinct exports made up front and cycled (making them costs more than storing them). */
const DISTINCT_EXPORTS = 60;
const ITEMS_PER_EXPORT = 500;
const SAMPLE_MS = 20;

interface RoundFigures {
  peakMiB: number;
  meanMiB: number;
  mainUs: number;
  encoderUs: number;
  items: number;
  /** The process's anonymous resident memory (the engine's included). */
  anonPeakMiB: number;
  anonMeanMiB: number;
  /** Mean time of one batch's inserts (both tables). */
  insertMs: number;
  inserts: number;
}

function toRecords(messages: BusMessage[], sequence: number): BusRecord[] {
  return messages.map((m, i) => ({ ...m, topic: 'svc.signals', partition: i % 4, offset: BigInt(sequence * 1000 + i), timestampMs: Date.now() }));
}

/** Span and log deliveries, alternating. */
function deliveries(nowMs: number): BusRecord[][] {
  const nowNs = BigInt(nowMs) * 1_000_000n;
  const batches: BusRecord[][] = [];
  for (let e = 0; e < DISTINCT_EXPORTS; e++) {
    const spans = otlpCodec.decodeTracesProto(encodeTracesData(spanBatch(nowNs, e)));
    const spanSlices = spans.slices!;
    batches.push(toRecords(buildSpanRecords(spans.rows, MAX_RECORD_BYTES, (indices) => spanSlices.frame(indices)).signals, e));
    const logs = otlpCodec.decodeLogsProto(encodeLogsData(logBatch(nowNs, e)));
    const logSlices = logs.slices!;
    batches.push(toRecords(buildLogRecords(logs.rows, MAX_RECORD_BYTES, (indices) => logSlices.frame(indices)).signals, e));
  }
  return batches;
}

function rssAnonBytes(): number {
  const kib = /RssAnon:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
  return Number(kib ?? 0) * 1024;
}

const ONE_ROUND_ENV = 'SVC_BENCH_WRITER_HELD_ROUND';

async function oneRound(distSrc: string, seconds: number, ratePerSignal: number, churnObjects: number): Promise<void> {
  const load = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(distSrc, path)).href)) as T;
  const { Batcher } = await load<{ Batcher: typeof BatcherClass }>('writer/batcher.js');
  const { createPayloadEncoder } = await load<{ createPayloadEncoder: typeof CreatePayloadEncoder }>('writer/payload-encoder.js');
  const { ChdbStore } = await load<{ ChdbStore: { open(dir: string, database: string): Promise<Store> } }>('store/chdb-store.js');
  const { migrate } = await load<{ migrate(store: Store): Promise<void> }>('store/migrate.js');
  const { createSignalSink } = await load<{ createSignalSink(store: Store): SignalSink }>('cli/store-adapters.js');
  const dir = mkdtempSync(join(os.tmpdir(), 'svc-writer-held-'));
  const store = await ChdbStore.open(dir, 'svc_bench');
  try {
    await migrate(store);
    const sink = createSignalSink(store);
    const encoder = createPayloadEncoder({ threaded: true, format: sink.format });
    let stored = 0;
    let inserts = 0;
    let insertSeconds = 0;
    // The writer's settings' defaults: writer.max_rows 10000, writer.max_age_ms 1000.
    const batcher = new Batcher(sink, {
      maxRows: 10_000,
      maxAgeMs: 1000,
      backoff: { firstMs: 100, maxMs: 1000 },
      nowMs: Date.now,
      onFlushed: (spans, logs, seconds) => {
        stored += spans + logs;
        inserts += 1;
        insertSeconds += seconds;
      },
      onInsertFailure: (error) => {
        throw error;
      },
    });
    const nowMs = Date.now();
    const batches = deliveries(nowMs);
    // The deliveries' own record bytes stay for the whole round: held counts what is above them
    // (measured after a full collection, so that no garbage of making them counts).
    (globalThis as { gc?: () => void }).gc?.();
    const baselineBytes = process.memoryUsage().arrayBuffers;
    const handled: Promise<void>[] = [];
    const deliver = (records: BusRecord[]): void => {
      handled.push(encoder.encode(records, nowMs).then((payloads) => batcher.add(payloads)));
    };
    // Warm-up: a second of load, stored, before anything is measured.
    for (let i = 0; i < (2 * ratePerSignal) / ITEMS_PER_EXPORT; i++) deliver(batches[i % batches.length]!);
    await Promise.all(handled.splice(0));
    inserts = 0;
    insertSeconds = 0;
    const encoderThread = ownThreadId('svc-encoder');
    const mainBefore = ownThreadRunNs(process.pid);
    const encoderBefore = ownThreadRunNs(encoderThread);
    const samples: number[] = [];
    const anonSamples: number[] = [];
    const sampler = setInterval(() => {
      samples.push(process.memoryUsage().arrayBuffers);
      anonSamples.push(rssAnonBytes());
    }, SAMPLE_MS);
    const startedMs = Date.now();
    const deliveriesPerSecond = (2 * ratePerSignal) / ITEMS_PER_EXPORT;
    let sent = 0;
    // The all-in-one's main thread also runs ingest, the assembler and the logminer, whose garbage
    // makes young collections frequent: a payload waiting a second outlives several and is
    // promoted. Each tick makes CHURN_OBJECTS small objects that live until the next tick.
    const churn: object[][] = [];
    // Paced: each tick sends the deliveries due by now.
    await new Promise<void>((resolve) => {
      const pacer = setInterval(() => {
        const elapsedMs = Date.now() - startedMs;
        const due = Math.min(seconds, elapsedMs / 1000) * deliveriesPerSecond;
        while (sent < due) deliver(batches[sent++ % batches.length]!);
        churn[0] = Array.from({ length: churnObjects }, (_, i) => ({ i, at: elapsedMs }));
        if (elapsedMs >= seconds * 1000) {
          clearInterval(pacer);
          churn.length = 0;
          resolve();
        }
      }, 10);
    });
    await Promise.all(handled.splice(0));
    clearInterval(sampler);
    const items = sent * ITEMS_PER_EXPORT;
    const figures: RoundFigures = {
      peakMiB: (Math.max(...samples) - baselineBytes) / 2 ** 20,
      meanMiB: (samples.reduce((sum, bytes) => sum + bytes, 0) / samples.length - baselineBytes) / 2 ** 20,
      anonPeakMiB: Math.max(...anonSamples) / 2 ** 20,
      anonMeanMiB: anonSamples.reduce((sum, bytes) => sum + bytes, 0) / anonSamples.length / 2 ** 20,
      insertMs: (insertSeconds * 1000) / inserts,
      inserts,
      mainUs: (ownThreadRunNs(process.pid) - mainBefore) / 1000 / items,
      encoderUs: (ownThreadRunNs(encoderThread) - encoderBefore) / 1000 / items,
      items,
    };
    await batcher.close();
    await encoder.close();
    const warmItems = Math.ceil((2 * ratePerSignal) / ITEMS_PER_EXPORT) * ITEMS_PER_EXPORT;
    if (stored !== warmItems + items) throw new Error(`stored ${stored} of ${warmItems + items} items`);
    console.log(JSON.stringify(figures));
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function main(): Promise<void> {
  const seconds = Number(process.env.SVC_BENCH_WRITER_SECS ?? 15);
  const rate = Number(process.env.SVC_BENCH_WRITER_RATE ?? 10_000);
  const only = process.env[ONE_ROUND_ENV];
  const churnObjects = Number(process.env.SVC_BENCH_WRITER_CHURN ?? 20_000);
  if (only !== undefined) return oneRound(only, seconds, rate, churnObjects);
  const base = process.env.SVC_BENCH_CPU_BASE;
  const rounds = Number(process.env.SVC_BENCH_CPU_ROUNDS ?? 3);
  const builds = new Map<string, string>([['this build', new URL('../src/', import.meta.url).pathname]]);
  if (base !== undefined) builds.set(`base ${base}`, join(base, 'dist', 'src'));
  const script = new URL(import.meta.url).pathname;
  const labels = [...builds.keys()];
  const figures = new Map(labels.map((label) => [label, [] as RoundFigures[]]));
  for (let r = 0; r < rounds; r++) {
    for (const label of r % 2 === 0 ? labels : [...labels].reverse()) {
      const out = execFileSync(process.execPath, ['--expose-gc', script], { env: { ...process.env, [ONE_ROUND_ENV]: builds.get(label)! }, encoding: 'utf8' });
      const round = JSON.parse(out.trim().split('\n').pop()!) as RoundFigures;
      figures.get(label)!.push(round);
      console.log(`round ${r + 1} [${label}]: ${JSON.stringify(round)}; load average ${os.loadavg()[0]!.toFixed(2)}`);
    }
  }
  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  for (const [label, runs] of figures) {
    const of = (pick: (r: RoundFigures) => number): string => `${median(runs.map(pick)).toFixed(2)} (${runs.map((r) => pick(r).toFixed(2)).join(', ')})`;
    console.log(
      `writer held bytes [${label}]: ArrayBuffers above the deliveries' own peak ${of((r) => r.peakMiB)} MiB, mean ${of((r) => r.meanMiB)} MiB (main thread's allocations only: the encoder thread's payloads are counted by its own allocator); anonymous RSS peak ${of((r) => r.anonPeakMiB)} MiB, mean ${of((r) => r.anonMeanMiB)} MiB; insert ${of((r) => r.insertMs)} ms; main thread ${of((r) => r.mainUs)} µs/item; encoder thread ${of((r) => r.encoderUs)} µs/item; ${rate} spans/s + ${rate} logs/s for ${seconds} s, churn ${churnObjects} objects/10 ms; load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
