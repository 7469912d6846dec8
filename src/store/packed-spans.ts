/**
 * The packed span of trace_spans (migration 11) back to a SpanRow: one JSON text per span, its
 * attribute, event and link lists already JSON inside it (see ./migrations/0011-trace-spans.ts).
 */

import type { AttrPair, SpanKind, SpanRow, SpanStatus } from '../model/signals.js';
import type { StoredEvent, StoredLink } from './attrs-json.js';

/** The packed array's slots, in the migration's order. */
export type PackedSpan = [
  spanId: string,
  parentSpanId: string,
  serviceName: string,
  name: string,
  kind: SpanKind,
  status: SpanStatus,
  statusMessage: string,
  startNs: string,
  endNs: string,
  attrs: AttrPair[],
  resource: AttrPair[],
  events: StoredEvent[],
  scopeName: string,
  scopeVersion: string,
  links: StoredLink[] | null,
];

/** Parses one packed text. */
export function parsePacked(text: string): PackedSpan {
  return JSON.parse(text) as PackedSpan;
}

/** The start of a parsed packed span as its exact decimal text (for ordering without BigInt). */
export function packedStart(p: PackedSpan): string {
  return p[7];
}

/** A packed span of `traceId` as the SpanRow every trace read answers; links only when asked for (and present). */
export function packedToSpanRow(traceId: string, p: PackedSpan, withLinks: boolean): SpanRow {
  const row: SpanRow = {
    traceId,
    spanId: p[0],
    parentSpanId: p[1],
    serviceName: p[2],
    name: p[3],
    kind: p[4],
    startNs: BigInt(p[7]),
    endNs: BigInt(p[8]),
    status: p[5],
    statusMessage: p[6],
    attrs: p[9],
    resource: p[10],
    events: p[11].length === 0 ? [] : p[11].map((e) => ({ tsNs: BigInt(e.ts_ns), name: e.name, attrs: e.attrs })),
    scopeName: p[12],
    scopeVersion: p[13],
  };
  const links = p[14];
  if (withLinks && links !== null && links.length > 0) {
    row.links = links.map((l) => ({ traceId: l.trace_id, spanId: l.span_id, traceState: l.trace_state, attrs: l.attrs, droppedAttrsCount: l.dropped_attrs }));
  }
  return row;
}
