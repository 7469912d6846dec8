/**
 * The writer's hand-over to its encoder thread, per thread: main-thread and encoder-thread CPU per
 * item of the threaded payload encoder (pack the records, post them, encode there, take the reply),
 * and the bytes a batch of payloads holds while it waits in the Batcher. The records are those
 * ingest makes of the ingest-e2e exports (500 spans of 50 traces, 500 logs), handed over as the bus
 * delivers them at load: one export's records per delivery, a few deliveries in flight. CPU per
 * thread from /proc/self/task/<tid>/schedstat (nanoseconds on the CPU). Each round runs in a fresh
 * process that loads one build only, alternating builds so a drift in the machine's load falls on both.
 *   SVC_BENCH_CPU_BASE      a checkout of an older build: measured alternately with this one
 *   SVC_BENCH_CPU_ROUNDS    rounds per build (default 6)
 *   SVC_BENCH_WRITER_EXPORTS exports (of each signal) a round (default 400)
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BusMessage, BusRecord } from '../src/model/bus.js';
import { otlpCodec } from '../src/cli/codec.js';
import { buildLogRecords, buildSpanRecords } from '../src/ingest/records.js';
import type { createPayloadEncoder as CreatePayloadEncoder } from '../src/writer/payload-encoder.js';
import { encodeLogsData } from '../src/otlp/encode-logs.js';
import { encodeTracesData } from '../src/otlp/encode-traces.js';
import { logBatch, spanBatch } from './ingest-e2e.js';
import { ownThreadId, ownThreadRunNs } from './thread-cpu.js';

const MAX_RECORD_BYTES = 1 << 20;
/** Deliveries handed over before the first is answered, as the bus keeps several in flight. */
const IN_FLIGHT = 4;

/** What a delivery's reply holds: the payloads the Batcher keeps until their insert. */
interface Reply {
  spans: Uint8Array;
  spanRows: number;
  logs: Uint8Array;
  logRows: number;
}

function toRecords(messages: BusMessage[], sequence: number): BusRecord[] {
  return messages.map((m, i) => ({ ...m, topic: 'svc.signals', partition: i % 4, offset: BigInt(sequence * 1000 + i), timestampMs: Date.now() }));
}

/** The deliveries of `exports` span exports and as many log exports, alternating. */
function deliveries(nowMs: number, exports: number): { batches: BusRecord[][]; items: number; recordBytes: number } {
  const nowNs = BigInt(nowMs) * 1_000_000n;
  const batches: BusRecord[][] = [];
  let items = 0;
  let recordBytes = 0;
  for (let e = 0; e < exports; e++) {
    const spans = otlpCodec.decodeTracesProto(encodeTracesData(spanBatch(nowNs, e)));
    const spanSlices = spans.slices!;
    batches.push(toRecords(buildSpanRecords(spans.rows, MAX_RECORD_BYTES, (indices) => spanSlices.frame(indices)).signals, e));
    const logs = otlpCodec.decodeLogsProto(encodeLogsData(logBatch(nowNs, e)));
    const logSlices = logs.slices!;
    batches.push(toRecords(buildLogRecords(logs.rows, MAX_RECORD_BYTES, (indices) => logSlices.frame(indices)).signals, e));
    items += spans.rows.length + logs.rows.length;
  }
  for (const batch of batches) for (const record of batch) recordBytes += record.value.length;
  return { batches, items, recordBytes };
}

/** Bytes a reply keeps alive: its payloads' whole buffers (a view pins all of its buffer). */
function heldBytes(reply: Reply): number {
  return (reply.spanRows > 0 ? reply.spans.buffer.byteLength : 0) + (reply.logRows > 0 ? reply.logs.buffer.byteLength : 0);
}

const ONE_ROUND_ENV = 'SVC_BENCH_WRITER_ENCODER_ROUND';

async function oneRound(distSrc: string, exports: number): Promise<void> {
  const module = (await import(pathToFileURL(join(distSrc, 'writer/payload-encoder.js')).href)) as { createPayloadEncoder: typeof CreatePayloadEncoder };
  const encoder = module.createPayloadEncoder({ threaded: true, format: 'RowBinary' });
  const nowMs = Date.now();
  const { batches, items, recordBytes } = deliveries(nowMs, exports);
  const run = async (): Promise<{ rows: number; held: number }> => {
    let rows = 0;
    let held = 0;
    let next = 0;
    const lane = async (): Promise<void> => {
      for (let batch = batches[next++]; batch !== undefined; batch = batches[next++]) {
        const reply = (await encoder.encode(batch, nowMs)) as Reply;
        rows += reply.spanRows + reply.logRows;
        held += heldBytes(reply);
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
    return { rows, held };
  };
  // Warm-up: both threads' code optimized before anything is timed.
  await run();
  const encoderThread = ownThreadId('svc-encoder');
  const mainBefore = ownThreadRunNs(process.pid);
  const encoderBefore = ownThreadRunNs(encoderThread);
  const { rows, held } = await run();
  const mainNs = ownThreadRunNs(process.pid) - mainBefore;
  const encoderNs = ownThreadRunNs(encoderThread) - encoderBefore;
  if (rows !== items) throw new Error(`encoded ${rows} of ${items} items`);
  await encoder.close();
  console.log(
    JSON.stringify({
      mainUs: mainNs / 1000 / items,
      encoderUs: encoderNs / 1000 / items,
      heldBytesPerItem: held / items,
      recordBytesPerItem: recordBytes / items,
    }),
  );
}

export async function main(): Promise<void> {
  const exports = Number(process.env.SVC_BENCH_WRITER_EXPORTS ?? 400);
  const only = process.env[ONE_ROUND_ENV];
  if (only !== undefined) return oneRound(only, exports);
  const base = process.env.SVC_BENCH_CPU_BASE;
  const rounds = Number(process.env.SVC_BENCH_CPU_ROUNDS ?? 6);
  const builds = new Map<string, string>([['this build', new URL('../src/', import.meta.url).pathname]]);
  if (base !== undefined) builds.set(`base ${base}`, join(base, 'dist', 'src'));
  const script = new URL(import.meta.url).pathname;
  const labels = [...builds.keys()];
  const figures = new Map(labels.map((label) => [label, [] as { mainUs: number; encoderUs: number; heldBytesPerItem: number; recordBytesPerItem: number }[]]));
  for (let r = 0; r < rounds; r++) {
    for (const label of r % 2 === 0 ? labels : [...labels].reverse()) {
      const out = execFileSync(process.execPath, [script], { env: { ...process.env, [ONE_ROUND_ENV]: builds.get(label)! }, encoding: 'utf8' });
      figures.get(label)!.push(JSON.parse(out.trim()));
    }
  }
  const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const list = (values: number[]): string => values.map((v) => v.toFixed(2)).join(', ');
  for (const [label, runs] of figures) {
    const main = runs.map((r) => r.mainUs);
    const enc = runs.map((r) => r.encoderUs);
    console.log(
      `writer encoder [${label}]: main thread median ${median(main).toFixed(2)} µs/item (${list(main)}); encoder thread median ${median(enc).toFixed(2)} µs/item (${list(enc)}); payload bytes held ${runs[0]!.heldBytesPerItem.toFixed(0)} B/item (record bytes ${runs[0]!.recordBytesPerItem.toFixed(0)} B/item); ${exports} span + ${exports} log exports a round; load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
