/**
 * CPU per item of ingest's own work on the main thread, in-process and without the transport or the
 * disk: decoding an OTLP/HTTP protobuf export (the ingest-e2e payloads: 500 spans of 50 traces, 500
 * logs of which half carry a trace id), cutting it into bus records by trace id and service, and
 * framing a publish's records into one buffer as the embedded bus's main-thread side does (in this
 * build, checksums left to the bus's I/O thread; in a build before, each record framed and
 * checksummed alone, then concatenated). CPU time of this process (garbage collection
 * included), so a loaded machine slows it less than it slows wall-clock figures.
 *   SVC_BENCH_CPU_BASE    a checkout of an older build: measured alternately with this one
 *   SVC_BENCH_CPU_ROUNDS  rounds of 100 exports per build (default 8)
 */
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BusMessage, BusRecord } from '../src/model/bus.js';
import type { SignalCodec } from '../src/ingest/codec.js';
import type { buildLogRecords as BuildLogRecords, buildSpanRecords as BuildSpanRecords } from '../src/ingest/records.js';
import { encodeLogsData } from '../src/otlp/encode-logs.js';
import { encodeTracesData } from '../src/otlp/encode-traces.js';
import { logBatch, spanBatch } from './ingest-e2e.js';

interface IngestPath {
  codec: SignalCodec;
  buildSpanRecords: typeof BuildSpanRecords;
  buildLogRecords: typeof BuildLogRecords;
  /** Frames a publish's records into one buffer as the bus's main thread does; its bytes. */
  frameGroup: (messages: BusMessage[], offset: bigint) => number;
}

/** The record framing of a build: writeRecordFrame now; encodeRecordFrame(topic, partition, offset, timestampMs, message) before. */
interface AnyEntryCodec {
  recordFrameBytes?: (topic: string, message: BusMessage) => number;
  writeRecordFrame?: (out: Buffer, at: number, record: BusRecord, view: DataView) => number;
  encodeRecordFrame: (...args: unknown[]) => Buffer | Buffer[];
}

function groupFramer(codec: AnyEntryCodec): IngestPath['frameGroup'] {
  const { recordFrameBytes, writeRecordFrame, encodeRecordFrame } = codec;
  if (recordFrameBytes !== undefined && writeRecordFrame !== undefined) {
    return (messages, offset) => {
      let bytes = 0;
      for (const message of messages) bytes += recordFrameBytes('svc-signals', message);
      const group = Buffer.allocUnsafeSlow(bytes);
      const view = new DataView(group.buffer, group.byteOffset, group.byteLength);
      let at = 0;
      for (const message of messages) at = writeRecordFrame(group, at, { topic: 'svc-signals', partition: 0, offset, timestampMs: 0, ...message }, view);
      return at;
    };
  }
  return (messages, offset) => {
    const buffers: Buffer[] = [];
    for (const message of messages) buffers.push(...(encodeRecordFrame('svc-signals', 0, offset, 0, message) as Buffer[]));
    return Buffer.concat(buffers).length;
  };
}

const EXPORTS_PER_ROUND = 100;
const MAX_RECORD_BYTES = 1 << 20;

async function load(distSrc: string): Promise<IngestPath> {
  const from = async <T>(path: string) => (await import(pathToFileURL(join(distSrc, path)).href)) as T;
  const { otlpCodec } = await from<{ otlpCodec: SignalCodec }>('cli/codec.js');
  const records = await from<{ buildSpanRecords: typeof BuildSpanRecords; buildLogRecords: typeof BuildLogRecords }>('ingest/records.js');
  const codec = await from<AnyEntryCodec>('bus/disk/entry-codec.js');
  return { codec: otlpCodec, ...records, frameGroup: groupFramer(codec) };
}

/** One span export and one log export through decode, records and frames; returns the bytes framed. */
function ingestOnce(path: IngestPath, spans: Uint8Array, logs: Uint8Array, offset: bigint): number {
  let bytes = 0;
  const frame = (messages: BusMessage[]) => {
    if (messages.length > 0) bytes += path.frameGroup(messages, offset);
  };
  const decodedSpans = path.codec.decodeTracesProto(spans);
  const spanSlices = decodedSpans.slices!;
  frame(path.buildSpanRecords(decodedSpans.rows, MAX_RECORD_BYTES, (indices) => spanSlices.frame(indices)).signals);
  const decodedLogs = path.codec.decodeLogsProto(logs);
  const logSlices = decodedLogs.slices!;
  const built = path.buildLogRecords(decodedLogs.rows, MAX_RECORD_BYTES, (indices) => logSlices.frame(indices));
  frame(built.signals);
  frame(built.logs);
  return bytes;
}

/** CPU µs per item (a span or a log) over one round. */
function round(path: IngestPath, spans: Uint8Array, logs: Uint8Array, items: number): number {
  const start = process.cpuUsage();
  for (let i = 0; i < EXPORTS_PER_ROUND; i++) ingestOnce(path, spans, logs, BigInt(i));
  const used = process.cpuUsage(start);
  return (used.user + used.system) / (EXPORTS_PER_ROUND * items);
}

export async function main(): Promise<void> {
  const base = process.env.SVC_BENCH_CPU_BASE;
  const rounds = Number(process.env.SVC_BENCH_CPU_ROUNDS ?? 8);
  const builds = new Map<string, IngestPath>([['this build', await load(new URL('../src/', import.meta.url).pathname)]]);
  if (base !== undefined) builds.set(`base ${base}`, await load(join(base, 'dist', 'src')));
  const nowNs = BigInt(Date.now()) * 1_000_000n;
  const spanRows = spanBatch(nowNs, 1);
  const logRows = logBatch(nowNs, 1);
  const spans = encodeTracesData(spanRows);
  const logs = encodeLogsData(logRows);
  const items = spanRows.length + logRows.length;
  // Warm-up: every build's code optimized before anything is timed.
  for (const path of builds.values()) round(path, spans, logs, items);
  const figures = new Map([...builds.keys()].map((label) => [label, [] as number[]]));
  const labels = [...builds.keys()];
  for (let r = 0; r < rounds; r++) {
    // Alternate which build goes first, so a drift in the machine's load falls on both.
    for (const label of r % 2 === 0 ? labels : [...labels].reverse()) figures.get(label)!.push(round(builds.get(label)!, spans, logs, items));
  }
  for (const [label, micros] of figures) {
    const sorted = [...micros].sort((a, b) => a - b);
    console.log(
      `cpu ingest path [${label}]: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(2)} µs of CPU per item (decode, records, bus frames; ${EXPORTS_PER_ROUND} exports of ${spanRows.length} spans + ${logRows.length} logs a round; rounds ${sorted.map((v) => v.toFixed(2)).join(', ')}); load average ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
