import type { SpanKind, SpanStatus } from '../model/signals.js';

/** Span kinds by OTLP enum value (trace.proto SpanKind); unknown values read as 'unspecified'. */
export const SPAN_KINDS: readonly SpanKind[] = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'];
/** Status codes by OTLP enum value (trace.proto Status.StatusCode); unknown values read as 'unset'. */
export const SPAN_STATUSES: readonly SpanStatus[] = ['unset', 'ok', 'error'];

export function spanKindOf(value: number): SpanKind {
  return value >= 0 && value < SPAN_KINDS.length ? SPAN_KINDS[value] : 'unspecified';
}

export function spanStatusOf(value: number): SpanStatus {
  return value >= 0 && value < SPAN_STATUSES.length ? SPAN_STATUSES[value] : 'unset';
}

export function spanKindValue(kind: SpanKind): number {
  const value = SPAN_KINDS.indexOf(kind);
  return value < 0 ? 0 : value;
}

export function spanStatusValue(status: SpanStatus): number {
  const value = SPAN_STATUSES.indexOf(status);
  return value < 0 ? 0 : value;
}
