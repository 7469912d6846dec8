/** Test fixtures: spans, logs and settings built from short descriptions with millisecond times. */
import type { ThresholdSettings } from '../config/settings.js';
import type { AttrPair, LogRow, SpanEvent, SpanKind, SpanRow, SpanStatus } from '../model/signals.js';

/** An epoch above 2^53 ns, so tests notice any lossy conversion. */
export const T0_NS = 1_763_800_000_000_000_000n;
export const TRACE_ID = '0123456789abcdef0123456789abcdef';

export const DEFAULT_THRESHOLDS: ThresholdSettings = Object.freeze({
  min_baseline_traces: 50,
  slow_trace_factor: 1.5,
  slow_trace_margin_ms: 100,
  new_op_presence: 0.01,
  missing_op_presence: 0.95,
  slower_op_factor: 2.0,
  slower_op_margin_ms: 50,
});

/** Milliseconds after T0 as Unix nanoseconds; fractions allowed (0.5 = 500 µs). */
export function atMs(ms: number): bigint {
  return T0_NS + BigInt(Math.round(ms * 1_000_000));
}

export function ms(value: number): bigint {
  return BigInt(Math.round(value * 1_000_000));
}

export interface SpanSpec {
  id: string;
  parent?: string;
  service?: string;
  name?: string;
  kind?: SpanKind;
  status?: SpanStatus;
  message?: string;
  start: number;
  end: number;
  attrs?: AttrPair[];
  events?: SpanEvent[];
}

/** A span from a spec; ids are padded to 16 hex-like characters. */
export function span(spec: SpanSpec): SpanRow {
  return {
    traceId: TRACE_ID,
    spanId: spanId(spec.id),
    parentSpanId: spec.parent === undefined || spec.parent === '' ? '' : spanId(spec.parent),
    serviceName: spec.service ?? 'api',
    name: spec.name ?? spec.id,
    kind: spec.kind ?? 'internal',
    startNs: atMs(spec.start),
    endNs: atMs(spec.end),
    status: spec.status ?? 'unset',
    statusMessage: spec.message ?? '',
    attrs: spec.attrs ?? [],
    resource: [['service.name', spec.service ?? 'api']],
    events: spec.events ?? [],
    scopeName: 'test',
    scopeVersion: '1',
  };
}

export function spanId(short: string): string {
  return short.padStart(16, '0');
}

/** An exception event with the given attributes. */
export function exceptionEvent(atMsValue: number, message?: string, type?: string): SpanEvent {
  const attrs: AttrPair[] = [];
  if (message !== undefined) attrs.push(['exception.message', message]);
  if (type !== undefined) attrs.push(['exception.type', type]);
  return { tsNs: atMs(atMsValue), name: 'exception', attrs };
}

export interface LogSpec {
  span?: string;
  severity: number;
  body: string;
  at: number;
  service?: string;
}

export function log(spec: LogSpec, index = 0): LogRow {
  return {
    logId: String(1000 + index),
    tsNs: atMs(spec.at),
    observedTsNs: atMs(spec.at),
    traceId: TRACE_ID,
    spanId: spec.span === undefined ? '' : spanId(spec.span),
    serviceName: spec.service ?? 'api',
    severityNumber: spec.severity,
    severityText: spec.severity >= 17 ? 'ERROR' : 'INFO',
    body: spec.body,
    attrs: [],
    resource: [],
    scopeName: 'test',
    scopeVersion: '1',
  };
}
