/**
 * Attribute lists and span events as stored JSON text. AttrValue is already plain JSON (int64
 * beyond 2^53 arrives as a decimal string), so attributes round-trip through JSON unchanged, each
 * pair's optional third element (its mark: bytes, a big int64, an integral double; signals.ts)
 * with it; rows stored before marks existed have none and read as before. Event timestamps are
 * bigint and travel as decimal strings. Spans' events and links are read back
 * from trace_spans' packed form (./packed-spans.ts).
 */

import type { AttrPair, SpanEvent, SpanLink } from '../model/signals.js';

/** A span link as stored (and packed in trace_spans). */
export interface StoredLink {
  trace_id: string;
  span_id: string;
  trace_state: string;
  attrs: AttrPair[];
  dropped_attrs: number;
}

/** A span event as stored (and packed in trace_spans). */
export interface StoredEvent {
  ts_ns: string;
  name: string;
  attrs: AttrPair[];
}

/** JSON text of an attribute list, `[[key, value], ...]`. */
export function attrsToJson(attrs: readonly AttrPair[]): string {
  return JSON.stringify(attrs);
}

/** Parses stored attribute JSON; '' (never written) reads as no attributes. */
export function attrsFromJson(text: string): AttrPair[] {
  return text === '' ? [] : (JSON.parse(text) as AttrPair[]);
}

/** JSON text of span events, timestamps as exact decimal strings. */
export function eventsToJson(events: readonly SpanEvent[]): string {
  if (events.length === 0) return '[]';
  const stored: StoredEvent[] = events.map((e) => ({ ts_ns: e.tsNs.toString(), name: e.name, attrs: e.attrs }));
  return JSON.stringify(stored);
}

/** JSON text of span links; '' when there are none (most spans), so they cost nothing stored. */
export function linksToJson(links: readonly SpanLink[] | undefined): string {
  if (links === undefined || links.length === 0) return '';
  const stored: StoredLink[] = links.map((l) => ({
    trace_id: l.traceId,
    span_id: l.spanId,
    trace_state: l.traceState,
    attrs: l.attrs,
    dropped_attrs: l.droppedAttrsCount,
  }));
  return JSON.stringify(stored);
}
