/**
 * Internal span and log rows: the one shape every component passes around after OTLP decode.
 * Timestamps are bigint Unix nanoseconds because they exceed 2^53 and must stay exact.
 */

export type SpanKind = 'unspecified' | 'internal' | 'server' | 'client' | 'producer' | 'consumer';
export type SpanStatus = 'unset' | 'ok' | 'error';

/**
 * An OTLP AnyValue as JSON: strings, booleans and doubles as themselves; int64 as a number when it
 * is a safe integer, otherwise as its exact decimal string; bytes as base64; arrays as arrays;
 * key-value lists as objects.
 */
export type AttrValue = string | number | boolean | null | AttrValue[] | { [key: string]: AttrValue };

/**
 * What a value's JSON cannot say about its OTLP type: 'b' bytes (the value is their base64 text),
 * 'i' an int64 beyond 2^53 (the value is its exact decimal text), 'd' a double with an integral
 * value (the value is a JSON number like any integer). A list marks its items by index (null for an
 * unmarked item), a key-value list its marked keys. Values that need none carry none.
 */
export type AttrMark = 'b' | 'i' | 'd' | (AttrMark | null)[] | { [key: string]: AttrMark };

/**
 * One attribute, in the contract's `[key, value]` pair shape; stored and read back with a third
 * element, its mark, when the value's JSON hides its type. svc's own API strips marks (attr-marks.ts).
 */
export type AttrPair = [key: string, value: AttrValue, mark?: AttrMark];

export interface SpanEvent {
  tsNs: bigint;
  name: string;
  attrs: AttrPair[];
}

/** An OTLP span link: a span this one relates to, in this trace or another. */
export interface SpanLink {
  /** 32 lowercase hex characters. */
  traceId: string;
  /** 16 lowercase hex characters. */
  spanId: string;
  /** W3C trace state of the linked span, '' when none. */
  traceState: string;
  attrs: AttrPair[];
  /** Attributes the sender dropped from the link. */
  droppedAttrsCount: number;
}

export interface SpanRow {
  /** 32 lowercase hex characters. */
  traceId: string;
  /** 16 lowercase hex characters. */
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  /** The resource's `service.name`, or 'unknown_service' when absent. */
  serviceName: string;
  name: string;
  kind: SpanKind;
  startNs: bigint;
  endNs: bigint;
  status: SpanStatus;
  statusMessage: string;
  attrs: AttrPair[];
  resource: AttrPair[];
  events: SpanEvent[];
  scopeName: string;
  scopeVersion: string;
  /** Absent when the span has no links (most spans; rows built in code need not say so). */
  links?: SpanLink[];
}

export interface LogRow {
  /** Unsigned 64-bit integer as a decimal string; a content hash so a replayed record keeps its id. */
  logId: string;
  /** The record's time, or its observed time when the record has none. */
  tsNs: bigint;
  observedTsNs: bigint;
  /** '' when the log carries no trace context. */
  traceId: string;
  spanId: string;
  serviceName: string;
  severityNumber: number;
  severityText: string;
  /** A string body as is; any other AnyValue body as its JSON text. */
  body: string;
  attrs: AttrPair[];
  resource: AttrPair[];
  scopeName: string;
  scopeVersion: string;
}

/** The decoded content of one OTLP export request or one bus record. */
export interface SignalBatch {
  spans: SpanRow[];
  logs: LogRow[];
}

export const UNKNOWN_SERVICE = 'unknown_service';
