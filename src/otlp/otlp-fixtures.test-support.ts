/**
 * Test support (not a test file): real OpenTelemetry SDK spans and log records, their reference
 * serializations (otlp-transformer 0.214.0, protobuf and JSON) and the rows expected from them,
 * derived straight from the SDK objects so the decoders are checked against an independent oracle.
 */
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type HrTime } from '@opentelemetry/api';
import { SeverityNumber } from '@opentelemetry/api-logs';
import { TraceState } from '@opentelemetry/core';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import { InMemoryLogRecordExporter, LoggerProvider, SimpleLogRecordProcessor, type ReadableLogRecord } from '@opentelemetry/sdk-logs';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { JsonLogsSerializer, JsonTraceSerializer, ProtobufLogsSerializer, ProtobufTraceSerializer } from 'otlp-transformer-ref';
import type { AttrMark, AttrPair, AttrValue, LogRow, SpanKind as RowSpanKind, SpanRow, SpanStatus } from '../model/signals.js';
import { UNKNOWN_SERVICE } from '../model/signals.js';

/** Times above 2^53 ns with non-zero nanosecond parts, to prove they stay exact. */
const BASE_SECONDS = 1_795_000_000;
function at(offsetSeconds: number, nanos: number): HrTime {
  return [BASE_SECONDS + offsetSeconds, nanos];
}

const CHECKOUT = resourceFromAttributes({ 'service.name': 'checkout', 'host.name': 'node-1', 'process.pid': 4242 });
const NAMELESS = resourceFromAttributes({ 'deployment.environment': 'prod' });

/** Spans from two resources (one without service.name) and three scopes, covering every row field. */
export function makeSpans(): ReadableSpan[] {
  const exporter = new InMemorySpanExporter();
  for (const resource of [CHECKOUT, NAMELESS]) {
    const provider = new BasicTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const http = provider.getTracer('@opentelemetry/instrumentation-http', '0.214.0');
    const db = provider.getTracer('db-lib');
    const root = http.startSpan('GET /api/orders/{id}', {
      kind: SpanKind.SERVER,
      startTime: at(0, 123_456_789),
      attributes: {
        'http.method': 'GET',
        'http.status_code': 500,
        ratio: 0.25,
        'cache.hit': false,
        big: 2 ** 60,
        negative: -42,
        tags: ['a', 'b', ''],
        ports: [80, 443],
        flags: [true, false],
        empty: '',
        unicode: 'żółć 🚀 日本',
      },
      // Links: one bare, one with trace state, attributes and a dropped count (the serializer also
      // writes link flags, which the decoders skip).
      links: [
        { context: { traceId: '5b8efff798038103d269b633813fc60c', spanId: 'eee19b7ec3c1b174', traceFlags: 1 } },
        {
          context: { traceId: '0000000000000000000000000000beef', spanId: '00000000000000ff', traceFlags: 0, traceState: new TraceState('vendor=a1,other=b2') },
          attributes: { 'link.reason': 'retry', attempt: 2 },
          droppedAttributesCount: 3,
        },
      ],
    });
    root.addEvent('exception', { 'exception.type': 'TimeoutError', 'exception.message': 'db timed out' }, at(1, 5));
    root.addEvent('retry', undefined, at(1, 6));
    root.setStatus({ code: SpanStatusCode.ERROR, message: 'upstream failed' });
    const parentContext = trace.setSpan(ROOT_CONTEXT, root);
    for (const kind of [SpanKind.INTERNAL, SpanKind.CLIENT, SpanKind.PRODUCER, SpanKind.CONSUMER]) {
      const child = db.startSpan(`child ${kind}`, { kind, startTime: at(0, 200_000_000 + kind) }, parentContext);
      if (kind === SpanKind.CLIENT) child.setStatus({ code: SpanStatusCode.OK });
      child.end(at(0, 900_000_000 + kind));
    }
    root.end(at(2, 999_999_999));
  }
  return exporter.getFinishedSpans();
}

/** Log records with string, structured, numeric and bytes bodies, with and without trace context. */
export function makeLogs(): ReadableLogRecord[] {
  const exporter = new InMemoryLogRecordExporter();
  const spanContext = { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331', traceFlags: 1 };
  const context = trace.setSpanContext(ROOT_CONTEXT, spanContext);
  for (const resource of [CHECKOUT, NAMELESS]) {
    const provider = new LoggerProvider({ resource, processors: [new SimpleLogRecordProcessor({ exporter })] });
    const logger = provider.getLogger('app-logger', '1.0.0');
    logger.emit({
      timestamp: at(3, 1),
      observedTimestamp: at(3, 2),
      severityNumber: SeverityNumber.ERROR,
      severityText: 'ERROR',
      body: 'payment failed for order 12345',
      attributes: { 'order.id': 12345, nested: { a: 1, b: ['x', 'y'], c: { d: true } }, raw: new Uint8Array([0, 1, 2, 250]) },
      context,
    });
    logger.emit({ timestamp: at(3, 3), severityNumber: SeverityNumber.INFO, severityText: 'INFO', body: { event: 'login', user: 'ana', attempts: 2 } });
    logger.emit({ timestamp: at(3, 4), body: 42 });
    logger.emit({ timestamp: at(3, 5), body: new Uint8Array([104, 105]) });
    logger.emit({ timestamp: at(3, 6), severityText: 'DEBUG' });
  }
  return exporter.getFinishedLogRecords();
}

export function spansToProtobuf(spans: ReadableSpan[]): Uint8Array {
  return ProtobufTraceSerializer.serializeRequest(spans) as Uint8Array;
}

export function spansToJson(spans: ReadableSpan[]): unknown {
  return JSON.parse(new TextDecoder().decode(JsonTraceSerializer.serializeRequest(spans)));
}

export function logsToProtobuf(logs: ReadableLogRecord[]): Uint8Array {
  return ProtobufLogsSerializer.serializeRequest(logs) as Uint8Array;
}

export function logsToJson(logs: ReadableLogRecord[]): unknown {
  return JSON.parse(new TextDecoder().decode(JsonLogsSerializer.serializeRequest(logs)));
}

function nanos(time: HrTime): bigint {
  return BigInt(time[0]) * 1_000_000_000n + BigInt(time[1]);
}

/** The AttrValue an SDK attribute value must decode to, per the signals.ts rules. */
export function expectedValue(value: unknown): AttrValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number') return Number.isSafeInteger(value) || !Number.isInteger(value) ? value : BigInt(value).toString();
  if (typeof value === 'string' || typeof value === 'boolean') return value;
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(expectedValue);
  const object: { [key: string]: AttrValue } = {};
  for (const [key, item] of Object.entries(value as object)) object[key] = expectedValue(item);
  return object;
}

/**
 * The mark (signals.ts) an SDK attribute value must decode with: the SDK sends an integral number
 * as an int64 (marked when past 2^53) and bytes as bytes; lists and maps mark their items.
 */
export function expectedMark(value: unknown): AttrMark | undefined {
  if (value === null || value === undefined || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') return Number.isInteger(value) && !Number.isSafeInteger(value) ? 'i' : undefined;
  if (value instanceof Uint8Array) return 'b';
  if (Array.isArray(value)) {
    const marks = value.map((item) => expectedMark(item) ?? null);
    return marks.some((mark) => mark !== null) ? marks : undefined;
  }
  const marks: { [key: string]: AttrMark } = {};
  for (const [key, item] of Object.entries(value as object)) {
    const mark = expectedMark(item);
    if (mark !== undefined) marks[key] = mark;
  }
  return Object.keys(marks).length > 0 ? marks : undefined;
}

function expectedPairs(attributes: object | undefined): AttrPair[] {
  return Object.entries(attributes ?? {}).map(([key, value]): AttrPair => {
    const mark = expectedMark(value);
    return mark === undefined ? [key, expectedValue(value)] : [key, expectedValue(value), mark];
  });
}

function expectedService(resource: Resource): string {
  const name = resource.attributes['service.name'];
  return typeof name === 'string' && name !== '' ? name : UNKNOWN_SERVICE;
}

const KINDS: RowSpanKind[] = ['internal', 'server', 'client', 'producer', 'consumer'];
const STATUSES: SpanStatus[] = ['unset', 'ok', 'error'];

/** The rows for `spans`, in the reference serializer's order (by resource, then scope). */
export function expectedSpanRows(spans: ReadableSpan[]): SpanRow[] {
  return groupLikeReference(spans).map((span) => ({
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId ?? '',
    serviceName: expectedService(span.resource),
    name: span.name,
    kind: KINDS[span.kind],
    startNs: nanos(span.startTime),
    endNs: nanos(span.endTime),
    status: STATUSES[span.status.code],
    statusMessage: span.status.message ?? '',
    attrs: expectedPairs(span.attributes),
    resource: expectedPairs(span.resource.attributes),
    events: span.events.map((event) => ({ tsNs: nanos(event.time), name: event.name, attrs: expectedPairs(event.attributes) })),
    scopeName: span.instrumentationScope.name,
    scopeVersion: span.instrumentationScope.version ?? '',
    ...(span.links.length === 0
      ? {}
      : {
          links: span.links.map((link) => ({
            traceId: link.context.traceId,
            spanId: link.context.spanId,
            traceState: link.context.traceState?.serialize() ?? '',
            attrs: expectedPairs(link.attributes ?? {}),
            droppedAttrsCount: link.droppedAttributesCount ?? 0,
          })),
        }),
  }));
}

/** The rows for `logs` without logId (checked separately), in the reference serializer's order. */
export function expectedLogRows(logs: ReadableLogRecord[]): Omit<LogRow, 'logId'>[] {
  return groupLikeReference(logs).map((log) => {
    const body = log.body === undefined ? '' : typeof log.body === 'string' ? log.body : JSON.stringify(expectedValue(log.body));
    const timeNs = nanos(log.hrTime);
    return {
      tsNs: timeNs === 0n ? nanos(log.hrTimeObserved) : timeNs,
      observedTsNs: nanos(log.hrTimeObserved),
      traceId: log.spanContext?.traceId ?? '',
      spanId: log.spanContext?.spanId ?? '',
      serviceName: expectedService(log.resource),
      severityNumber: log.severityNumber ?? 0,
      severityText: log.severityText ?? '',
      body,
      attrs: expectedPairs(log.attributes),
      resource: expectedPairs(log.resource.attributes),
      scopeName: log.instrumentationScope.name,
      scopeVersion: log.instrumentationScope.version ?? '',
    };
  });
}

/** Orders items as the reference serializer emits them: by resource object, then scope, first seen first. */
function groupLikeReference<T extends { resource: Resource; instrumentationScope: { name: string; version?: string } }>(items: T[]): T[] {
  const byResource = new Map<Resource, Map<string, T[]>>();
  for (const item of items) {
    let scopes = byResource.get(item.resource);
    if (scopes === undefined) byResource.set(item.resource, (scopes = new Map()));
    const key = `${item.instrumentationScope.name}@${item.instrumentationScope.version ?? ''}`;
    const list = scopes.get(key);
    if (list === undefined) scopes.set(key, [item]);
    else list.push(item);
  }
  return [...byResource.values()].flatMap((scopes) => [...scopes.values()].flat());
}
