/**
 * svc's stored spans as Jaeger's API v3 answers them: OTLP JSON (`{"result": {"resourceSpans": ...}}`)
 * after Jaeger v2's adjusters: attributes sorted by key, events by name, and the clock-skew check's
 * warnings as the `@jaeger@warnings` span attribute (appended last, as Jaeger appends it).
 */

import type { AttrMark, AttrPair, AttrValue, SpanKind, SpanRow } from '../../model/signals.js';
import { itemMark } from '../../model/attr-marks.js';
import { keptLinks, spanWarnings } from './jaeger-trace.js';

type OtlpValue = Record<string, unknown>;
interface OtlpAttr {
  key: string;
  value: OtlpValue;
}

const KIND_NUMBER: Record<SpanKind, number> = { unspecified: 0, internal: 1, server: 2, client: 3, producer: 4, consumer: 5 };
const STATUS_CODE = { unset: 0, ok: 1, error: 2 } as const;
const WARNINGS_ATTRIBUTE = '@jaeger@warnings';

/** A stored attribute value back as an OTLP AnyValue in its JSON form, its mark (signals.ts) giving back the type JSON hid. */
export function toOtlpValue(value: AttrValue, mark?: AttrMark): OtlpValue {
  if (typeof value === 'string') {
    if (mark === 'b') return { bytesValue: value };
    if (mark === 'i') return { intValue: value };
    return { stringValue: value };
  }
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number') return Number.isInteger(value) && mark !== 'd' ? { intValue: String(value) } : { doubleValue: value };
  if (value === null) return {};
  if (Array.isArray(value)) return { arrayValue: { values: value.map((item, i) => toOtlpValue(item, itemMark(mark, i))) } };
  return { kvlistValue: { values: Object.entries(value).map(([key, inner]) => ({ key, value: toOtlpValue(inner, itemMark(mark, key)) })) } };
}

function sortedAttributes(pairs: readonly AttrPair[]): OtlpAttr[] {
  return pairs.map(([key, value, mark]) => ({ key, value: toOtlpValue(value, mark) })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** Leaves out what OTLP JSON leaves out: empty lists, an absent parent, a zero kind. */
function otlpSpan(span: SpanRow, warnings: readonly string[] | undefined) {
  const attributes = sortedAttributes(span.attrs);
  if (warnings !== undefined) attributes.push({ key: WARNINGS_ATTRIBUTE, value: { arrayValue: { values: warnings.map((text) => ({ stringValue: text })) } } });
  const events = [...span.events]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((event) => ({
      timeUnixNano: event.tsNs.toString(),
      name: event.name,
      ...(event.attrs.length > 0 ? { attributes: sortedAttributes(event.attrs) } : {}),
    }));
  const links = keptLinks(span).map((link) => ({
    traceId: link.traceId,
    spanId: link.spanId,
    ...(link.traceState === '' ? {} : { traceState: link.traceState }),
    ...(link.attrs.length > 0 ? { attributes: sortedAttributes(link.attrs) } : {}),
    ...(link.droppedAttrsCount === 0 ? {} : { droppedAttributesCount: link.droppedAttrsCount }),
  }));
  const status: Record<string, unknown> = {};
  if (span.statusMessage !== '') status.message = span.statusMessage;
  if (span.status !== 'unset') status.code = STATUS_CODE[span.status];
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    ...(span.parentSpanId === '' ? {} : { parentSpanId: span.parentSpanId }),
    name: span.name,
    ...(span.kind === 'unspecified' ? {} : { kind: KIND_NUMBER[span.kind] }),
    startTimeUnixNano: span.startNs.toString(),
    endTimeUnixNano: span.endNs.toString(),
    ...(attributes.length > 0 ? { attributes } : {}),
    ...(events.length > 0 ? { events } : {}),
    ...(links.length > 0 ? { links } : {}),
    status,
  };
}

/**
 * Traces (each one's spans, in the order given) as one OTLP TracesData: per trace, one resourceSpans
 * per resource and in it one scopeSpans per scope, in order of first appearance.
 */
export function toOtlpTracesData(traces: readonly (readonly SpanRow[])[]) {
  const resourceSpans: { resource: { attributes: OtlpAttr[] }; scopeSpans: { scope: Record<string, string>; spans: ReturnType<typeof otlpSpan>[] }[] }[] = [];
  for (const spans of traces) {
    const warnings = spanWarnings(spans, 'v3');
    const byResource = new Map<string, (typeof resourceSpans)[number]>();
    for (const span of spans) {
      const resourceKey = JSON.stringify(span.resource);
      let group = byResource.get(resourceKey);
      if (group === undefined) {
        group = { resource: { attributes: sortedAttributes(span.resource) }, scopeSpans: [] };
        byResource.set(resourceKey, group);
        resourceSpans.push(group);
      }
      let scope = group.scopeSpans.find((entry) => (entry.scope.name ?? '') === span.scopeName && (entry.scope.version ?? '') === span.scopeVersion);
      if (scope === undefined) {
        scope = {
          scope: { ...(span.scopeName === '' ? {} : { name: span.scopeName }), ...(span.scopeVersion === '' ? {} : { version: span.scopeVersion }) },
          spans: [],
        };
        group.scopeSpans.push(scope);
      }
      scope.spans.push(otlpSpan(span, warnings.get(span.spanId)));
    }
  }
  return { resourceSpans };
}
