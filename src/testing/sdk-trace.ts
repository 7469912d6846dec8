import { ROOT_CONTEXT, SpanStatusCode, trace, type Attributes, type Span, type SpanKind } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { exportSpans, hrAt, traceExporter, type Endpoints } from './otel.js';

export interface SpanOptions {
  kind: SpanKind;
  parent?: Span;
  /** Start and end in ms relative to the builder's `nowMs` (negative: in the past). */
  startMs: number;
  endMs: number;
  /** Sets an error status with this message ('' marks an error without a message). */
  error?: string;
  attributes?: Attributes;
}

/**
 * Traces built with the real OpenTelemetry SDK: one tracer provider per service, so each span
 * carries its service's resource as an instrumented process would send it.
 */
export class SdkTraces {
  private readonly memory = new InMemorySpanExporter();
  private readonly providers = new Map<string, BasicTracerProvider>();
  constructor(readonly nowMs = Date.now()) {}

  span(service: string, name: string, options: SpanOptions): Span {
    let provider = this.providers.get(service);
    if (provider === undefined) {
      provider = new BasicTracerProvider({
        resource: resourceFromAttributes({ 'service.name': service }),
        spanProcessors: [new SimpleSpanProcessor(this.memory)],
      });
      this.providers.set(service, provider);
    }
    const context = options.parent === undefined ? ROOT_CONTEXT : trace.setSpan(ROOT_CONTEXT, options.parent);
    const span = provider
      .getTracer('svc-e2e')
      .startSpan(name, { kind: options.kind, startTime: hrAt(this.nowMs, options.startMs), attributes: options.attributes }, context);
    if (options.error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: options.error });
    span.end(hrAt(this.nowMs, options.endMs));
    return span;
  }

  /** The spans finished so far; the builder starts empty again. */
  take(): ReadableSpan[] {
    const finished = this.memory.getFinishedSpans();
    this.memory.reset();
    return finished;
  }
}

/**
 * Exports spans over OTLP/HTTP protobuf (gzip) through the SDK's exporter, `batch` spans per
 * request; one request by default, so a trace's spans cannot straddle the assembler's gap.
 */
export async function sendSpans(endpoints: Endpoints, spans: ReadableSpan[], batch = Math.max(1, spans.length)): Promise<void> {
  const exporter = traceExporter('http-protobuf', endpoints, true);
  try {
    for (let i = 0; i < spans.length; i += batch) await exportSpans(exporter, spans.slice(i, i + batch));
  } finally {
    await exporter.shutdown();
  }
}

/** Polls `probe` until it returns a value; fails with `what` after `timeoutMs`. */
export async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
