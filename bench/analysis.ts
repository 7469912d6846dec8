/**
 * Trace-analysis benchmark on one core: traces/s and spans/s for 20-span traces (no story, error
 * story, slow story) and for one 10,000-span trace, plus baseline building. One figure a line.
 * Usage: node dist/bench/analysis.js
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ThresholdSettings } from '../src/config/settings.js';
import type { LogRow, SpanKind, SpanRow, SpanStatus } from '../src/model/signals.js';
import { analyzeTrace } from '../src/analysis/analyze.js';
import { buildBaselines, endpointKey, type EndpointBaseline } from '../src/analysis/baseline.js';
import type { BaselineSample } from '../src/analysis/types.js';

const THRESHOLDS: ThresholdSettings = {
  min_baseline_traces: 50,
  slow_trace_factor: 1.5,
  slow_trace_margin_ms: 100,
  new_op_presence: 0.01,
  missing_op_presence: 0.95,
  slower_op_factor: 2.0,
  slower_op_margin_ms: 50,
};
const T0_NS = 1_763_800_000_000_000_000n;
const SERVICES = ['frontend', 'checkout', 'cart', 'payments', 'inventory', 'postgres'];
/** How long each measurement runs. */
const MEASURE_MS = 1500;

interface Trace {
  spans: SpanRow[];
  logs: LogRow[];
}

function hex(value: number, width: number): string {
  return value.toString(16).padStart(width, '0');
}

/**
 * A trace of `spanCount` spans: a server root fanning out into a tree of branching factor 4, each
 * span with a few attributes; `failAt` marks one span as failing with an exception event and an
 * error log; `scaleMs` stretches the whole trace (for slow traces).
 */
function makeTrace(seed: number, spanCount: number, options: { failAt?: number; scaleMs?: number } = {}): Trace {
  const traceId = hex(seed, 32);
  const scaleNs = BigInt(Math.round((options.scaleMs ?? 200) * 1e6));
  const spans: SpanRow[] = [];
  const window: [bigint, bigint][] = [];
  for (let i = 0; i < spanCount; i++) {
    const parent = i === 0 ? -1 : Math.floor((i - 1) / 4);
    const [pStart, pEnd] = parent === -1 ? [T0_NS, T0_NS + scaleNs] : window[parent];
    const slice = (pEnd - pStart) / 5n;
    const slot = BigInt(i === 0 ? 0 : (i - 1) % 4);
    const startNs = parent === -1 ? pStart : pStart + slice * slot + 1000n;
    const endNs = parent === -1 ? pEnd : startNs + slice - 2000n;
    window.push([startNs, endNs]);
    const failing = options.failAt === i;
    const kind: SpanKind = i === 0 ? 'server' : i % 3 === 0 ? 'client' : 'internal';
    const status: SpanStatus = failing ? 'error' : 'unset';
    spans.push({
      traceId,
      spanId: hex(seed * 100_000 + i + 1, 16),
      parentSpanId: parent === -1 ? '' : hex(seed * 100_000 + parent + 1, 16),
      serviceName: SERVICES[Math.min(SERVICES.length - 1, Math.floor(Math.log2(i + 1)))],
      name: i === 0 ? 'GET' : `op ${i % 17}`,
      kind,
      startNs,
      endNs,
      status,
      statusMessage: failing ? `timeout after ${seed % 5000} ms on shard ${seed % 7}` : '',
      attrs: [
        ['http.route', '/orders/:id'],
        ['http.response.status_code', failing ? 500 : 200],
        ['server.address', 'db-1.internal'],
      ],
      resource: [['service.name', 'x']],
      events: failing
        ? [
            {
              tsNs: endNs - 1000n,
              name: 'exception',
              attrs: [
                ['exception.type', 'TimeoutError'],
                ['exception.message', 'deadline exceeded'],
              ],
            },
          ]
        : [],
      scopeName: 'bench',
      scopeVersion: '1',
    });
  }
  const logs: LogRow[] = spans.slice(0, Math.min(spanCount, 5)).map((s, i) => ({
    logId: String(seed * 10 + i),
    tsNs: s.startNs + 10n,
    observedTsNs: s.startNs + 10n,
    traceId,
    spanId: s.spanId,
    serviceName: s.serviceName,
    severityNumber: 9,
    severityText: 'INFO',
    body: `handled request ${seed}`,
    attrs: [],
    resource: [],
    scopeName: 'bench',
    scopeVersion: '1',
  }));
  return { spans, logs };
}

/** Checks the traces give the expected story kind, then analyses them round-robin for about MEASURE_MS; returns [traces/s, spans/s]. */
function measure(traces: readonly Trace[], baseline: EndpointBaseline | null, expectKind: 'error' | 'slow' | null): [number, number] {
  for (const trace of traces.slice(0, 20)) {
    const kind = analyzeTrace({ ...trace, truncated: false, baseline, thresholds: THRESHOLDS })?.story?.kind ?? null;
    if (kind !== expectKind) throw new Error(`bench trace gave story ${kind}, expected ${expectKind}`);
  }
  const run = (count: number) => {
    let spans = 0;
    for (let i = 0; i < count; i++) {
      const trace = traces[i % traces.length];
      const result = analyzeTrace({ spans: trace.spans, logs: trace.logs, truncated: false, baseline, thresholds: THRESHOLDS });
      if (result === null) throw new Error('no analysis');
      spans += trace.spans.length;
    }
    return spans;
  };
  run(Math.min(traces.length, 200)); // warm-up for the JIT
  let done = 0;
  let spans = 0;
  const started = process.hrtime.bigint();
  let elapsedMs = 0;
  while (elapsedMs < MEASURE_MS) {
    spans += run(traces.length);
    done += traces.length;
    elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
  }
  return [(done * 1000) / elapsedMs, (spans * 1000) / elapsedMs];
}

function baselineFor(traces: readonly Trace[]): EndpointBaseline {
  const samples: BaselineSample[] = traces.map((t) => {
    const result = analyzeTrace({ spans: t.spans, logs: t.logs, truncated: false, baseline: null, thresholds: THRESHOLDS });
    if (result === null) throw new Error('no analysis');
    return result.baselineSample;
  });
  const key = endpointKey('frontend', 'GET /orders/:id');
  const baseline = buildBaselines(new Map([[key, samples]]), THRESHOLDS).get(key);
  if (baseline === undefined || !baseline.trusted) throw new Error('bench baseline not trusted');
  return baseline;
}

/** Prints the figures. */
export async function main(): Promise<void> {
  const normal = Array.from({ length: 500 }, (_, i) => makeTrace(i + 1, 20));
  const failing = Array.from({ length: 500 }, (_, i) => makeTrace(i + 1, 20, { failAt: 5 + (i % 15) }));
  const slow = Array.from({ length: 500 }, (_, i) => makeTrace(i + 1, 20, { scaleMs: 2000 }));
  const baseline = baselineFor(normal);

  const [okTraces, okSpans] = measure(normal, baseline, null);
  console.log(`analysis_traces_per_sec_20_spans_no_story ${Math.round(okTraces)}`);
  console.log(`analysis_spans_per_sec_20_spans_no_story ${Math.round(okSpans)}`);
  const [errTraces, errSpans] = measure(failing, baseline, 'error');
  console.log(`analysis_traces_per_sec_20_spans_error_story ${Math.round(errTraces)}`);
  console.log(`analysis_spans_per_sec_20_spans_error_story ${Math.round(errSpans)}`);
  const [slowTraces, slowSpans] = measure(slow, baseline, 'slow');
  console.log(`analysis_traces_per_sec_20_spans_slow_story ${Math.round(slowTraces)}`);
  console.log(`analysis_spans_per_sec_20_spans_slow_story ${Math.round(slowSpans)}`);

  const big = [makeTrace(9999, 10_000, { failAt: 7777, scaleMs: 60_000 })];
  const [bigTraces, bigSpans] = measure(big, null, 'error');
  console.log(`analysis_traces_per_sec_10000_spans_error_story ${bigTraces.toFixed(1)}`);
  console.log(`analysis_spans_per_sec_10000_spans_error_story ${Math.round(bigSpans)}`);
  console.log(`analysis_ms_per_10000_span_trace ${(1000 / bigTraces).toFixed(2)}`);

  const samples = normal.map((t) => analyzeTrace({ ...t, truncated: false, baseline: null, thresholds: THRESHOLDS })?.baselineSample as BaselineSample);
  const endpoints = new Map(Array.from({ length: 100 }, (_, i) => [endpointKey('svc', `GET /e${i}`), samples] as const));
  const started = process.hrtime.bigint();
  buildBaselines(endpoints, THRESHOLDS);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.log(`baseline_samples_per_sec ${Math.round((100 * samples.length) / seconds)}`);
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
