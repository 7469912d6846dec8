import { withoutMarks } from '../model/attr-marks.js';
import type { SpanRow } from '../model/signals.js';
import type { ApiSpan } from './types.js';

/**
 * A span in the trace API's shape. `self_ns` is the duration minus `childrenNs` (the direct
 * children's durations), never below 0: parallel children can sum to more than their parent.
 */
export function toApiSpan(span: SpanRow, childrenNs: bigint): ApiSpan {
  const durationNs = span.endNs - span.startNs;
  const selfNs = durationNs - childrenNs;
  return {
    span_id: span.spanId,
    parent_span_id: span.parentSpanId,
    service_name: span.serviceName,
    span_name: span.name,
    kind: span.kind,
    start_ns: span.startNs,
    duration_ns: durationNs,
    status: span.status,
    status_message: span.statusMessage,
    attrs: withoutMarks(span.attrs),
    resource: withoutMarks(span.resource),
    events: span.events.map((event) => ({ ts_ns: event.tsNs, name: event.name, attrs: withoutMarks(event.attrs) })),
    self_ns: selfNs > 0n ? selfNs : 0n,
  };
}
