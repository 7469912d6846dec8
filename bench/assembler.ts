/**
 * Assembler hot path on one core, without storage: bus records (OTLP protobuf, one 20-span trace
 * each, 2 % failing) decoded, buffered, closed by gap and analysed. One figure a line.
 * Usage: node dist/bench/assembler.js
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeTrace } from '../src/analysis/analyze.js';
import { TraceBuffer } from '../src/assembler/trace-buffer.js';
import type { ThresholdSettings } from '../src/config/settings.js';
import type { SpanRow } from '../src/model/signals.js';
import { decodeTraces } from '../src/otlp/decode-traces.js';
import { encodeTracesData } from '../src/otlp/encode-traces.js';

const THRESHOLDS: ThresholdSettings = {
  min_baseline_traces: 50,
  slow_trace_factor: 1.5,
  slow_trace_margin_ms: 100,
  new_op_presence: 0.01,
  missing_op_presence: 0.95,
  slower_op_factor: 2.0,
  slower_op_margin_ms: 50,
};
const SPANS_PER_TRACE = 20;
const TRACES = 20_000;
const SERVICES = ['frontend', 'checkout', 'cart', 'payments', 'inventory'];

function hex(value: number, width: number): string {
  return value.toString(16).padStart(width, '0');
}

/** A 20-span trace: a server root, then a chain of client/server hops with a few attributes each. */
function record(index: number): Buffer {
  const traceId = hex(index + 1, 32);
  const t0 = BigInt(Date.now()) * 1_000_000n;
  const spans: SpanRow[] = [];
  for (let i = 0; i < SPANS_PER_TRACE; i++) {
    const service = SERVICES[i % SERVICES.length];
    const failing = index % 50 === 0 && i === SPANS_PER_TRACE - 1;
    spans.push({
      traceId,
      spanId: hex(i + 1, 16),
      parentSpanId: i === 0 ? '' : hex(Math.floor((i - 1) / 2) + 1, 16),
      serviceName: service,
      name: i === 0 ? 'GET /checkout' : `${service} op ${i % 4}`,
      kind: i === 0 ? 'server' : i % 2 === 1 ? 'client' : 'server',
      startNs: t0 + BigInt(i) * 1_000_000n,
      endNs: t0 + BigInt(i) * 1_000_000n + BigInt(40 - i) * 1_000_000n,
      status: failing ? 'error' : 'unset',
      statusMessage: failing ? `card declined ${index}` : '',
      attrs: [
        ['http.method', 'GET'],
        ['http.status_code', failing ? 500 : 200],
        ['net.peer.name', `${service}.svc`],
      ],
      resource: [['service.name', service]],
      events: [],
      scopeName: 'bench',
      scopeVersion: '1',
    });
  }
  return encodeTracesData(spans);
}

export async function main(): Promise<void> {
  const records = Array.from({ length: TRACES }, (_, i) => record(i));
  const buffer = new TraceBuffer({ gapMs: 10_000, maxAgeMs: 60_000, maxSpans: 10_000, maxBufferBytes: 512 * 1024 * 1024, recentPerPartition: 100_000 });
  let stories = 0;
  let nowMs = 0;
  const started = process.hrtime.bigint();
  for (let i = 0; i < records.length; i++) {
    const spans = decodeTraces(records[i]);
    buffer.add(i % 12, spans[0].traceId, spans, [], nowMs);
    nowMs += 1;
    // Close in slices as the scheduler would, 100 ms of the fake clock at a time.
    if (i % 100 === 99) {
      for (const closed of buffer.closeDue(nowMs + 10_000)) {
        const analysis = analyzeTrace({ spans: closed.spans, logs: closed.logs, truncated: closed.truncated, baseline: () => null, thresholds: THRESHOLDS });
        if (analysis?.story) stories++;
      }
    }
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(`assembler_traces_per_sec_20_spans_decode_buffer_analyse ${Math.round(TRACES / seconds)}`);
  console.log(`assembler_spans_per_sec_20_spans_decode_buffer_analyse ${Math.round((TRACES * SPANS_PER_TRACE) / seconds)}`);
  console.log(`assembler_stories_in_run ${stories}`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
