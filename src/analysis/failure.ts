/**
 * What makes a span failing and what its failure says. The contract: a span fails when its status
 * is error, it has an exception event, or a log attached to it has severity number 17 or higher.
 * Its message is the status message, else the exception message, else the first ERROR log's body,
 * else the literal `error`.
 */
import type { AttrPair, LogRow, SpanRow } from '../model/signals.js';

/** OpenTelemetry's severity numbers: 17..20 are ERROR, 21..24 FATAL. */
export const SEVERITY_ERROR_MIN = 17;
export const SEVERITY_ERROR_MAX = 20;

/** The semantic-convention event name of a recorded exception. */
const EXCEPTION_EVENT = 'exception';

export interface Failure {
  message: string;
  exceptionType: string;
}

/** Logs of the trace grouped by span id, each list in time order (input order on ties). */
export function logsBySpan(logs: readonly LogRow[]): Map<string, LogRow[]> {
  const bySpan = new Map<string, LogRow[]>();
  for (const log of logs) {
    if (log.spanId === '') continue;
    let list = bySpan.get(log.spanId);
    if (list === undefined) bySpan.set(log.spanId, (list = []));
    list.push(log);
  }
  for (const list of bySpan.values()) {
    if (list.length > 1) list.sort((a, b) => (a.tsNs < b.tsNs ? -1 : a.tsNs > b.tsNs ? 1 : 0));
  }
  return bySpan;
}

/** Whether the span is an error span by the contract's three tests. */
export function isFailing(span: SpanRow, spanLogs: readonly LogRow[] | undefined): boolean {
  if (span.status === 'error') return true;
  for (const event of span.events) if (event.name === EXCEPTION_EVENT) return true;
  if (spanLogs !== undefined) {
    for (const log of spanLogs) if (log.severityNumber >= SEVERITY_ERROR_MIN) return true;
  }
  return false;
}

/** The span's failure message in the contract's order, and its exception type ('' when none). */
export function failureOf(span: SpanRow, spanLogs: readonly LogRow[] | undefined): Failure {
  const exception = firstException(span);
  const exceptionType = exception?.type ?? '';
  if (span.statusMessage !== '') return { message: span.statusMessage, exceptionType };
  if (exception?.message !== undefined) return { message: exception.message, exceptionType };
  if (spanLogs !== undefined) {
    for (const log of spanLogs) {
      if (log.severityNumber >= SEVERITY_ERROR_MIN && log.severityNumber <= SEVERITY_ERROR_MAX && log.body !== '') {
        return { message: log.body, exceptionType };
      }
    }
  }
  return { message: 'error', exceptionType };
}

/**
 * The earliest exception event's message and type. When the earliest has no message, the first
 * event with one supplies it (and its type), so that a bare marker event does not hide a message.
 */
function firstException(span: SpanRow): { message?: string; type?: string } | undefined {
  const events = span.events.filter((e) => e.name === EXCEPTION_EVENT).sort((a, b) => (a.tsNs < b.tsNs ? -1 : a.tsNs > b.tsNs ? 1 : 0));
  const chosen = events.find((event) => attrText(event.attrs, 'exception.message') !== undefined) ?? events[0];
  if (chosen === undefined) return undefined;
  return {
    message: attrText(chosen.attrs, 'exception.message'),
    type: attrText(chosen.attrs, 'exception.type') ?? firstType(events),
  };
}

function firstType(events: readonly { attrs: AttrPair[] }[]): string | undefined {
  for (const event of events) {
    const type = attrText(event.attrs, 'exception.type');
    if (type !== undefined) return type;
  }
  return undefined;
}

/** An attribute as text: strings as themselves, other scalars stringified; '' counts as absent. */
function attrText(attrs: readonly AttrPair[], key: string): string | undefined {
  for (const [k, v] of attrs) {
    if (k !== key) continue;
    if (v === null || v === '') return undefined;
    return typeof v === 'string' ? v : typeof v === 'object' ? JSON.stringify(v) : String(v);
  }
  return undefined;
}
