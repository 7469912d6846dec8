/**
 * CPU per item of the writer's encoder thread, in-process: decoding the bus records ingest makes of
 * the ingest-e2e exports (500 spans of 50 traces, 500 logs of which half carry a trace id) and
 * encoding their insert payloads as RowBinary, as encoder-thread.ts does for each batch. CPU time of
 * the measuring process (garbage collection included). Each round runs in a fresh process that loads
 * one build only: two copies of the same code loaded in one process measured ~35 % apart (the one
 * loaded second slower), which would swamp the differences looked for.
 *   SVC_BENCH_CPU_BASE    a checkout of an older build: measured alternately with this one
 *   SVC_BENCH_CPU_ROUNDS  rounds of 100 exports' records per build (default 8)
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SIGNAL_HEADER, type BusMessage } from '../src/model/bus.js';
import { otlpCodec } from '../src/cli/codec.js';
import { buildLogRecords, buildSpanRecords } from '../src/ingest/records.js';
import type { encodeRecordPayloads as EncodeRecordPayloads, PackedRecords } from '../src/writer/record-payloads.js';
import { encodeLogsData } from '../src/otlp/encode-logs.js';
import { encodeTracesData } from '../src/otlp/encode-traces.js';
import { logBatch, spanBatch } from './ingest-e2e.js';

type Encode = typeof EncodeRecordPayloads;

const EXPORTS_PER_ROUND = 100;
const MAX_RECORD_BYTES = 1 << 20;

async function load(distSrc: string): Promise<Encode> {
  const module = (await import(pathToFileURL(join(distSrc, 'writer/record-payloads.js')).href)) as { encodeRecordPayloads: Encode };
  return module.encodeRecordPayloads;
}

/** The bus records ingest makes of one span export and one log export, packed as the writer packs a batch. */
function records(nowMs: number): { packed: PackedRecords; items: number } {
  const nowNs = BigInt(nowMs) * 1_000_000n;
  const messages: BusMessage[] = [];
  const spans = otlpCodec.decodeTracesProto(encodeTracesData(spanBatch(nowNs, 1)));
  const spanSlices = spans.slices!;
  messages.push(...buildSpanRecords(spans.rows, MAX_RECORD_BYTES, (indices) => spanSlices.frame(indices)).signals);
  const logs = otlpCodec.decodeLogsProto(encodeLogsData(logBatch(nowNs, 1)));
  const logSlices = logs.slices!;
  const built = buildLogRecords(logs.rows, MAX_RECORD_BYTES, (indices) => logSlices.frame(indices));
  // The writer consumes the signals topic: spans and logs (the logs topic feeds the logminer).
  messages.push(...built.signals);
  let total = 0;
  for (const m of messages) total += m.value.length;
  const bytes = new Uint8Array(total);
  const ends = new Uint32Array(messages.length);
  const logFlags = new Uint8Array(messages.length);
  let offset = 0;
  messages.forEach((m, i) => {
    bytes.set(m.value, offset);
    offset += m.value.length;
    ends[i] = offset;
    logFlags[i] = m.headers?.[SIGNAL_HEADER] === 'logs' ? 1 : 0;
  });
  return { packed: { bytes, ends, logs: logFlags }, items: spans.rows.length + logs.rows.length };
}

/** CPU µs per item over one round; checks every item was encoded. */
function round(encode: Encode, packed: PackedRecords, items: number, nowMs: number): number {
  const start = process.cpuUsage();
  for (let i = 0; i < EXPORTS_PER_ROUND; i++) {
    const payloads = encode(packed, nowMs, 'RowBinary');
    if (payloads.spanRows + payloads.logRows !== items) throw new Error(`encoded ${payloads.spanRows + payloads.logRows} of ${items} items`);
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / (EXPORTS_PER_ROUND * items);
}

/** Set in a round's own process: the build (its dist/src) to load and time once. */
const ONE_ROUND_ENV = 'SVC_BENCH_CPU_ENCODER_ROUND';

/** One warmed-up round of the build at `distSrc` in this process; prints its µs per item. */
async function oneRound(distSrc: string): Promise<void> {
  const encode = await load(distSrc);
  const nowMs = Date.now();
  const { packed, items } = records(nowMs);
  // Warm-up: the code optimized before anything is timed.
  round(encode, packed, items, nowMs);
  console.log(round(encode, packed, items, nowMs).toFixed(3));
}

export async function main(): Promise<void> {
  const only = process.env[ONE_ROUND_ENV];
  if (only !== undefined) return oneRound(only);
  const base = process.env.SVC_BENCH_CPU_BASE;
  const rounds = Number(process.env.SVC_BENCH_CPU_ROUNDS ?? 8);
  const builds = new Map<string, string>([['this build', new URL('../src/', import.meta.url).pathname]]);
  if (base !== undefined) builds.set(`base ${base}`, join(base, 'dist', 'src'));
  const items = records(Date.now()).items;
  const script = new URL(import.meta.url).pathname;
  const figures = new Map([...builds.keys()].map((label) => [label, [] as number[]]));
  const labels = [...builds.keys()];
  for (let r = 0; r < rounds; r++) {
    // Alternate which build goes first, so a drift in the machine's load falls on both.
    for (const label of r % 2 === 0 ? labels : [...labels].reverse()) {
      const out = execFileSync(process.execPath, [script], { env: { ...process.env, [ONE_ROUND_ENV]: builds.get(label)! }, encoding: 'utf8' });
      figures.get(label)!.push(Number(out.trim()));
    }
  }
  for (const [label, micros] of figures) {
    const sorted = [...micros].sort((a, b) => a - b);
    console.log(
      `cpu encoder [${label}]: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} µs of CPU per item (decode records, encode RowBinary; ${EXPORTS_PER_ROUND} exports of ${items} items a round; rounds ${sorted.map((v) => v.toFixed(2)).join(', ')}); load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
