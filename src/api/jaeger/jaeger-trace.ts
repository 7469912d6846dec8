/**
 * svc's stored spans in Jaeger's JSON trace shape, as Jaeger v2's query service answers after its
 * standard adjusters: OTLP mapped to Jaeger's model (scope, kind and status as tags, events as
 * logs, the parent as a CHILD_OF reference, resources as processes), tags and log fields sorted,
 * and the clock-skew check with adjustment off (Jaeger's default): a child that does not fit in its
 * parent keeps its times and carries Jaeger's warning naming the delta it would have applied.
 */

import type { AttrMark, AttrPair, AttrValue, SpanLink, SpanRow } from '../../model/signals.js';
import { itemMark } from '../../model/attr-marks.js';
import type { JaegerKeyValue, JaegerSpan, JaegerTrace } from '../schemas/jaeger.js';
import { formatGoDuration } from './go-text.js';

const SERVICE_NAME = 'service.name';

/**
 * Go's json.Marshal of a decoded map or slice value (map keys sorted), as OTLP's AsString prints
 * one: an int64 past 2^53 as its bare digits, bytes as their base64 text.
 */
function goJson(value: AttrValue, mark: AttrMark | undefined): string {
  if (Array.isArray(value)) return `[${value.map((item, i) => goJson(item, itemMark(mark, i))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${goJson(value[key] ?? null, itemMark(mark, key))}`).join(',')}}`;
  }
  if (mark === 'i') return String(value);
  return JSON.stringify(value);
}

/**
 * One attribute as a typed Jaeger tag; its mark tells bytes (`binary`, base64 text), an int64
 * past 2^53 (`int64`, its decimal text, as Jaeger writes one) and a double with no fraction (`float64`).
 */
export function toKeyValue(key: string, value: AttrValue, mark?: AttrMark): JaegerKeyValue {
  if (mark === 'b' && typeof value === 'string') return { key, type: 'binary', value };
  if (mark === 'i' && typeof value === 'string') return { key, type: 'int64', value };
  if (mark === 'd' && typeof value === 'number') return { key, type: 'float64', value };
  if (typeof value === 'string') return { key, type: 'string', value };
  if (typeof value === 'boolean') return { key, type: 'bool', value };
  if (typeof value === 'number') return Number.isInteger(value) ? { key, type: 'int64', value } : { key, type: 'float64', value };
  // An empty AnyValue prints as the empty string; lists and maps as their JSON text.
  if (value === null) return { key, type: 'string', value: '' };
  return { key, type: 'string', value: goJson(value, mark) };
}

const TYPE_ORDER: Record<JaegerKeyValue['type'], number> = { string: 0, bool: 1, int64: 2, float64: 3, binary: 4 };

/** Jaeger's KeyValues.Sort: by key, then value type, then value. */
function compareKeyValues(a: JaegerKeyValue, b: JaegerKeyValue): number {
  if (a.key !== b.key) return a.key < b.key ? -1 : 1;
  if (a.type !== b.type) return TYPE_ORDER[a.type] - TYPE_ORDER[b.type];
  const av = a.value;
  const bv = b.value;
  return av < bv ? -1 : av > bv ? 1 : 0;
}

/** Jaeger's IP adjuster: an integer `ip` or `peer.ipv4` tag reads as a dotted quad. */
function adjustIp(tag: JaegerKeyValue): JaegerKeyValue {
  if ((tag.key !== 'ip' && tag.key !== 'peer.ipv4') || (tag.type !== 'int64' && tag.type !== 'float64')) return tag;
  // An int64 past 2^53 is its exact decimal text: its low 32 bits come from that text, not a rounded number.
  const exact = typeof tag.value === 'string' ? BigInt(tag.value) : BigInt(Math.trunc(Number(tag.value)));
  const n = Number(BigInt.asUintN(32, exact));
  return { key: tag.key, type: 'string', value: [24, 16, 8, 0].map((shift) => (n >>> shift) & 255).join('.') };
}

function sortedTags(pairs: readonly AttrPair[]): JaegerKeyValue[] {
  return pairs.map(([key, value, mark]) => adjustIp(toKeyValue(key, value, mark))).sort(compareKeyValues);
}

function spanTags(span: SpanRow): JaegerKeyValue[] {
  const tags: JaegerKeyValue[] = [];
  if (span.scopeName !== '') tags.push({ key: 'otel.scope.name', type: 'string', value: span.scopeName });
  if (span.scopeVersion !== '') tags.push({ key: 'otel.scope.version', type: 'string', value: span.scopeVersion });
  for (const [key, value, mark] of span.attrs) tags.push(adjustIp(toKeyValue(key, value, mark)));
  if (span.kind !== 'unspecified') tags.push({ key: 'span.kind', type: 'string', value: span.kind });
  if (span.status === 'error') {
    tags.push({ key: 'otel.status_code', type: 'string', value: 'ERROR' });
    tags.push({ key: 'error', type: 'bool', value: true });
  } else if (span.status === 'ok') {
    tags.push({ key: 'otel.status_code', type: 'string', value: 'OK' });
  }
  if (span.statusMessage !== '') tags.push({ key: 'otel.status_description', type: 'string', value: span.statusMessage });
  return tags.sort(compareKeyValues);
}

/** Span events as Jaeger logs: the event name as the `event` field first, then the attributes sorted. */
function spanLogs(span: SpanRow): JaegerSpan['logs'] {
  return span.events.map((event) => {
    const attrs = event.attrs.map(([key, value, mark]) => toKeyValue(key, value, mark));
    const namedByAttr = attrs.findIndex((field) => field.key === 'event' && field.type === 'string');
    let head: JaegerKeyValue[] = [];
    let rest = attrs;
    if (namedByAttr >= 0) {
      head = [attrs[namedByAttr]!];
      rest = attrs.filter((_, i) => i !== namedByAttr);
    } else if (event.name !== '' && !event.attrs.some(([key]) => key === 'event')) {
      head = [{ key: 'event', type: 'string', value: event.name }];
    }
    return { timestamp: Number(event.tsNs / 1000n), fields: [...head, ...rest.sort(compareKeyValues)] };
  });
}

/** The reference type a link asks for: `opentracing.ref_type: child_of` makes it CHILD_OF, anything else FOLLOWS_FROM. */
function linkRefType(link: SpanLink): JaegerSpan['references'][number]['refType'] {
  const marked = link.attrs.find(([key]) => key === 'opentracing.ref_type');
  return marked?.[1] === 'child_of' ? 'CHILD_OF' : 'FOLLOWS_FROM';
}

/**
 * The parent as the first reference, then one per link, as Jaeger's OTLP translator builds them: a
 * link to the parent itself only retypes the parent's reference.
 */
function spanReferences(span: SpanRow, jaegerTraceId: string): JaegerSpan['references'] {
  const references: JaegerSpan['references'] = span.parentSpanId === '' ? [] : [{ refType: 'CHILD_OF', traceID: jaegerTraceId, spanID: span.parentSpanId }];
  for (const link of keptLinks(span)) {
    const refType = linkRefType(link);
    if (span.parentSpanId !== '' && link.traceId === span.traceId && link.spanId === span.parentSpanId) {
      references[0]!.refType = refType;
      continue;
    }
    references.push({ refType, traceID: jaegerTraceIdOf(link.traceId), spanID: link.spanId });
  }
  return references;
}

/** Jaeger's clock-skew delta of a child against its (unadjusted) parent, in ns. */
function skewNs(child: SpanRow, parent: SpanRow): bigint {
  const parentDuration = parent.endNs - parent.startNs;
  const childDuration = child.endNs - child.startNs;
  if (childDuration > parentDuration) return child.startNs < parent.startNs ? parent.startNs - child.startNs : 0n;
  if (child.startNs >= parent.startNs && child.endNs <= parent.endNs) return 0n;
  const latency = (parentDuration - childDuration) / 2n;
  return parent.startNs + latency - child.startNs;
}

/** The host a span ran on, as Jaeger's clock-skew check keys it: its process's `ip` tag. */
function hostKey(span: SpanRow): string {
  const ip = span.resource.find(([key]) => key === 'ip');
  if (ip === undefined) return '';
  return typeof ip[1] === 'string' ? ip[1] : '';
}

/** Jaeger's words for a span whose parent is not in the trace: its JSON API's, or its API v3's. */
const MISSING_PARENT = {
  v1: (parentSpanId: string) => `invalid parent span IDs=${parentSpanId}; skipping clock skew adjustment`,
  v3: (parentSpanId: string) => `parent span ID=${parentSpanId} is not in the trace; skipping clock skew adjustment`,
};

/** Appends to the list under `key` in place (a copy per append is quadratic in a 10,000-span trace). */
function appendTo<T>(lists: Map<string, T[]>, key: string, item: T): void {
  const list = lists.get(key);
  if (list === undefined) lists.set(key, [item]);
  else list.push(item);
}

/** Warnings per span id from Jaeger's clock-skew check with adjustment disabled. */
function clockSkewWarnings(spans: readonly SpanRow[], missingParent = MISSING_PARENT.v1): Map<string, string[]> {
  const warnings = new Map<string, string[]>();
  const warn = (spanId: string, text: string) => appendTo(warnings, spanId, text);
  const byId = new Map(spans.map((span) => [span.spanId, span]));
  const children = new Map<string, SpanRow[]>();
  const roots: SpanRow[] = [];
  for (const span of spans) {
    if (span.parentSpanId === '') {
      roots.push(span);
    } else if (byId.has(span.parentSpanId)) {
      appendTo(children, span.parentSpanId, span);
    } else {
      warn(span.spanId, missingParent(span.parentSpanId));
      roots.push(span);
    }
  }
  // Depth-first without recursion: a 10,000-span chain must not overflow the stack. A span on
  // another host than the skew it inherits (or on an unknown host) gets its own delta.
  const stack = roots.map((span) => ({ span, parent: null as SpanRow | null, skew: { deltaNs: 0n, host: hostKey(span) } }));
  while (stack.length > 0) {
    const { span, parent, skew: inherited } = stack.pop()!;
    const host = hostKey(span);
    const skew = parent !== null && (host !== inherited.host || host === '') ? { deltaNs: skewNs(span, parent), host } : inherited;
    if (skew.deltaNs !== 0n) warn(span.spanId, `clock skew adjustment disabled; not applying calculated delta of ${formatGoDuration(skew.deltaNs)}`);
    for (const child of children.get(span.spanId) ?? []) stack.push({ span: child, parent: span, skew });
  }
  return warnings;
}

const EMPTY_TRACE_ID = '0'.repeat(32);

/** Jaeger's words for a link it drops because its trace id is empty: its JSON API's (Go's print of the reference), or its API v3's. */
const EMPTY_LINK = {
  v1: (link: SpanLink) =>
    `Invalid span reference removed {TraceID:${jaegerTraceIdOf(link.traceId)} SpanID:${link.spanId} RefType:${linkRefType(link)} XXX_NoUnkeyedLiteral:{} XXX_unrecognized:[] XXX_sizecache:0}`,
  v3: () => 'Invalid span link removed',
};

/** The links Jaeger serves: all but those with an empty trace id. */
export function keptLinks(span: SpanRow): SpanLink[] {
  return (span.links ?? []).filter((link) => link.traceId !== EMPTY_TRACE_ID);
}

/** Every span's warnings, in the order of Jaeger's adjusters: the clock-skew check's, then one per link dropped (its last adjuster). */
export function spanWarnings(spans: readonly SpanRow[], api: 'v1' | 'v3'): Map<string, string[]> {
  const warnings = clockSkewWarnings(spans, MISSING_PARENT[api]);
  for (const span of spans) {
    for (const link of span.links ?? []) {
      if (link.traceId === EMPTY_TRACE_ID) appendTo(warnings, span.spanId, EMPTY_LINK[api](link));
    }
  }
  return warnings;
}

/** A trace's spans (one trace, any order) as Jaeger's trace; spans keep the order given. */
export function toJaegerTrace(traceId: string, spans: readonly SpanRow[], traceWarnings: string[] | null = null): JaegerTrace {
  const warnings = spanWarnings(spans, 'v1');
  const processIds = new Map<string, string>();
  const processes: JaegerTrace['processes'] = {};
  const jaegerTraceId = jaegerTraceIdOf(traceId);
  const jaegerSpans = spans.map((span): JaegerSpan => {
    const tags = sortedTags(span.resource.filter(([key]) => key !== SERVICE_NAME));
    const processKey = JSON.stringify([span.serviceName, tags], (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));
    let processId = processIds.get(processKey);
    if (processId === undefined) {
      processId = `p${processIds.size + 1}`;
      processIds.set(processKey, processId);
      processes[processId] = { serviceName: span.serviceName, tags };
    }
    return {
      traceID: jaegerTraceId,
      spanID: span.spanId,
      operationName: span.name,
      references: spanReferences(span, jaegerTraceId),
      // Unix µs stay below 2^53 until the year 2255: plain numbers, so the reply is JSON.stringify's.
      startTime: Number(span.startNs / 1000n),
      duration: Number((span.endNs - span.startNs) / 1000n),
      tags: spanTags(span),
      logs: spanLogs(span),
      processID: processId,
      warnings: warnings.get(span.spanId) ?? null,
    };
  });
  return { traceID: jaegerTraceId, spans: jaegerSpans, processes, warnings: traceWarnings };
}

/** Jaeger prints a trace id whose high 64 bits are zero as its low 16 hex digits. */
export function jaegerTraceIdOf(traceId: string): string {
  return traceId.length === 32 && traceId.startsWith('0000000000000000') ? traceId.slice(16) : traceId;
}
