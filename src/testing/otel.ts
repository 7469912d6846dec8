import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type HrTime } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor, type LogRecordExporter, type ReadableLogRecord } from '@opentelemetry/sdk-logs';
import { OTLPTraceExporter as GrpcTraceExporter } from '@opentelemetry/exporter-trace-otlp-grpc';
import { OTLPTraceExporter as ProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPLogExporter as GrpcLogExporter } from '@opentelemetry/exporter-logs-otlp-grpc';
import { OTLPLogExporter as ProtoLogExporter } from '@opentelemetry/exporter-logs-otlp-proto';
import { OTLPLogExporter as JsonLogExporter } from '@opentelemetry/exporter-logs-otlp-http';
import { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';

export type ExporterKind = 'grpc' | 'http-protobuf' | 'http-json';

export interface Endpoints {
  grpcPort: number;
  otlpHttpPort: number;
}

export function traceExporter(kind: ExporterKind, endpoints: Endpoints, gzip: boolean): SpanExporter {
  const compression = gzip ? CompressionAlgorithm.GZIP : CompressionAlgorithm.NONE;
  if (kind === 'grpc') return new GrpcTraceExporter({ url: `http://127.0.0.1:${endpoints.grpcPort}`, compression });
  const url = `http://127.0.0.1:${endpoints.otlpHttpPort}/v1/traces`;
  return kind === 'http-protobuf' ? new ProtoTraceExporter({ url, compression }) : new JsonTraceExporter({ url, compression });
}

export function logExporter(kind: ExporterKind, endpoints: Endpoints, gzip: boolean): LogRecordExporter {
  const compression = gzip ? CompressionAlgorithm.GZIP : CompressionAlgorithm.NONE;
  if (kind === 'grpc') return new GrpcLogExporter({ url: `http://127.0.0.1:${endpoints.grpcPort}`, compression });
  const url = `http://127.0.0.1:${endpoints.otlpHttpPort}/v1/logs`;
  return kind === 'http-protobuf' ? new ProtoLogExporter({ url, compression }) : new JsonLogExporter({ url, compression });
}

/** Exports through a real SDK exporter; rejects unless the export succeeded. */
export function exportSpans(exporter: SpanExporter, spans: ReadableSpan[]): Promise<void> {
  return new Promise((resolve, reject) =>
    exporter.export(spans, (result) => (result.code === 0 ? resolve() : reject(result.error ?? new Error(`export failed: ${result.code}`)))),
  );
}

export function exportLogs(exporter: LogRecordExporter, logs: ReadableLogRecord[]): Promise<void> {
  return new Promise((resolve, reject) =>
    exporter.export(logs, (result) => (result.code === 0 ? resolve() : reject(result.error ?? new Error(`export failed: ${result.code}`)))),
  );
}

/** An hrtime `ms` milliseconds from now plus `extraNs`, so timestamps carry full nanosecond precision. */
export function hrAt(nowMs: number, offsetMs: number, extraNs = 0): HrTime {
  const totalNs = BigInt(Math.round(nowMs + offsetMs)) * 1_000_000n + BigInt(extraNs);
  return [Number(totalNs / 1_000_000_000n), Number(totalNs % 1_000_000_000n)];
}

/** How parseJsonExact reads an integer: a number when safe, else a bigint. */
export function asJsonInteger(value: bigint): number | bigint {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
}

export function hrToNs(time: HrTime): bigint {
  return BigInt(time[0]) * 1_000_000_000n + BigInt(time[1]);
}

export interface SampleTrace {
  traceId: string;
  spans: ReadableSpan[];
}

/**
 * A three-span trace across two services with attributes of every type, events, kinds and an
 * error status, built by the real SDK.
 */
export function buildSampleTrace(service: string, nowMs: number, tag: string): SampleTrace {
  const memory = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': service, 'deployment.environment': 'test', 'host.cores': 2 }),
    spanProcessors: [new SimpleSpanProcessor(memory)],
  });
  const tracer = provider.getTracer('svc-e2e', '1.2.3');
  const root = tracer.startSpan(`GET /orders/${tag}`, {
    kind: SpanKind.SERVER,
    startTime: hrAt(nowMs, -50, 123),
    attributes: { 'http.route': '/orders/:id', 'http.status_code': 500, ratio: 0.25, cached: false, tags: ['a', 'b'], 'unicode.text': 'żółw 🐢' },
  });
  const child = tracer.startSpan(
    'SELECT orders',
    { kind: SpanKind.CLIENT, startTime: hrAt(nowMs, -40, 7), attributes: { 'db.system': 'postgresql', rows: 3 } },
    trace.setSpan(ROOT_CONTEXT, root),
  );
  child.addEvent('exception', { 'exception.type': 'TimeoutError', 'exception.message': `timed out after 30 ms (${tag})` }, hrAt(nowMs, -21, 5));
  child.setStatus({ code: SpanStatusCode.ERROR, message: `db timeout ${tag}` });
  child.end(hrAt(nowMs, -20, 9));
  const internal = tracer.startSpan('render', { kind: SpanKind.INTERNAL, startTime: hrAt(nowMs, -15, 1) }, trace.setSpan(ROOT_CONTEXT, root));
  internal.end(hrAt(nowMs, -12, 2));
  root.setStatus({ code: SpanStatusCode.ERROR });
  root.end(hrAt(nowMs, -5, 3));
  return { traceId: root.spanContext().traceId, spans: memory.getFinishedSpans() };
}

/** Logs of a service, some attached to a trace's spans, built by the real SDK. */
export function buildSampleLogs(service: string, nowMs: number, attachTo: ReadableSpan | undefined, tag: string): ReadableLogRecord[] {
  const memory = new InMemoryLogRecordExporter();
  const provider = new LoggerProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    processors: [new SimpleLogRecordProcessor({ exporter: memory })],
  });
  const logger = provider.getLogger('svc-e2e-logs', '0.1.0');
  const context = attachTo === undefined ? ROOT_CONTEXT : trace.setSpan(ROOT_CONTEXT, trace.wrapSpanContext(attachTo.spanContext()));
  logger.emit({
    body: `order ${tag} failed: db timeout`,
    severityNumber: SeverityNumber.ERROR,
    severityText: 'ERROR',
    timestamp: hrAt(nowMs, -30, 11),
    observedTimestamp: hrAt(nowMs, -29, 12),
    attributes: { attempt: 2, 'user.id': 'u-17' },
    context,
  });
  logger.emit({ body: `retrying order ${tag}`, severityNumber: SeverityNumber.INFO, severityText: 'INFO', timestamp: hrAt(nowMs, -25, 13), context });
  return memory.getFinishedLogRecords();
}

const KIND_NAMES = ['internal', 'server', 'client', 'producer', 'consumer'] as const;
const STATUS_NAMES = ['unset', 'ok', 'error'] as const;

function pairs(attributes: Attributes): [string, unknown][] {
  return Object.entries(attributes).map(([key, value]) => [key, value]);
}

/** What GET /api/v1/traces/{id} must return for an SDK span, field by field (self_ns aside). */
export function expectedApiSpan(span: ReadableSpan) {
  const startNs = hrToNs(span.startTime);
  return {
    span_id: span.spanContext().spanId,
    parent_span_id: span.parentSpanContext?.spanId ?? '',
    service_name: String(span.resource.attributes['service.name']),
    span_name: span.name,
    kind: KIND_NAMES[span.kind],
    start_ns: startNs,
    duration_ns: asJsonInteger(hrToNs(span.endTime) - startNs),
    status: STATUS_NAMES[span.status.code],
    status_message: span.status.message ?? '',
    attrs: pairs(span.attributes),
    resource: pairs(span.resource.attributes),
    events: span.events.map((event) => ({ ts_ns: hrToNs(event.time), name: event.name, attrs: pairs(event.attributes ?? {}) })),
  };
}

export function expectedApiLog(log: ReadableLogRecord) {
  return {
    ts_ns: hrToNs(log.hrTime),
    span_id: log.spanContext?.spanId ?? '',
    service_name: String(log.resource.attributes['service.name']),
    severity_number: log.severityNumber ?? 0,
    severity_text: log.severityText ?? '',
    body: String(log.body),
  };
}
