/**
 * Rough in-memory size of buffered rows, for `assembler.max_buffer_bytes`. Exact heap accounting
 * is not available in JS; this counts string characters at 2 bytes (the worst case of V8's
 * representation) plus a fixed cost per object, which tracks real heap growth within a small
 * factor and, above all, grows with what a trace really holds (attributes, events, bodies).
 * The resource list is shared by all rows of one export, so it is not counted per row.
 */
import type { AttrPair, AttrValue, LogRow, SpanRow } from '../model/signals.js';

/** Object headers, fixed fields, two bigints and the two arrays of a span. */
const SPAN_FIXED_BYTES = 320;
/** Object headers, fixed fields and two bigints of a log. */
const LOG_FIXED_BYTES = 240;
/** The pair array and its slots. */
const ATTR_FIXED_BYTES = 48;
const EVENT_FIXED_BYTES = 96;

function valueBytes(value: AttrValue): number {
  if (typeof value === 'string') return 16 + value.length * 2;
  if (value === null || typeof value !== 'object') return 16;
  if (Array.isArray(value)) {
    let total = 32;
    for (const item of value) total += valueBytes(item);
    return total;
  }
  let total = 48;
  for (const [key, item] of Object.entries(value)) total += 16 + key.length * 2 + valueBytes(item);
  return total;
}

function attrsBytes(attrs: readonly AttrPair[]): number {
  let total = 0;
  for (const [key, value] of attrs) total += ATTR_FIXED_BYTES + key.length * 2 + valueBytes(value);
  return total;
}

/** Estimated heap bytes of a buffered span. */
export function spanBytes(span: SpanRow): number {
  let total =
    SPAN_FIXED_BYTES +
    2 * (span.traceId.length + span.spanId.length + span.parentSpanId.length + span.serviceName.length + span.name.length + span.statusMessage.length);
  total += attrsBytes(span.attrs);
  for (const event of span.events) total += EVENT_FIXED_BYTES + event.name.length * 2 + attrsBytes(event.attrs);
  return total;
}

/** Estimated heap bytes of a buffered log. */
export function logBytes(log: LogRow): number {
  return (
    LOG_FIXED_BYTES +
    2 * (log.logId.length + log.traceId.length + log.spanId.length + log.serviceName.length + log.severityText.length + log.body.length) +
    attrsBytes(log.attrs)
  );
}
