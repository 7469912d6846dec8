import type { FastifyInstance } from 'fastify';
import type { LogRow, SpanRow } from '../../model/signals.js';
import { badRequest, notFound } from '../errors.js';
import type { TraceRepo } from '../repo.js';
import type { RequestContext } from '../request-context.js';

const TRACE_ID = /^[0-9a-fA-F]{32}$/;

/** Validates a 32-hex trace or story id and returns it lowercased. */
export function parseTraceId(value: string): string {
  if (!TRACE_ID.test(value)) throw badRequest('id must be 32 hexadecimal characters');
  return value.toLowerCase();
}

/** The contract's Span shape, with self_ns = duration minus the direct children's durations (never below 0). */
export function toApiSpans(spans: SpanRow[]) {
  const childNs = new Map<string, bigint>();
  for (const span of spans) {
    if (span.parentSpanId === '') continue;
    childNs.set(span.parentSpanId, (childNs.get(span.parentSpanId) ?? 0n) + (span.endNs - span.startNs));
  }
  return spans.map((span) => {
    const durationNs = span.endNs - span.startNs;
    const selfNs = durationNs - (childNs.get(span.spanId) ?? 0n);
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
      attrs: span.attrs,
      resource: span.resource,
      events: span.events.map((event) => ({ ts_ns: event.tsNs, name: event.name, attrs: event.attrs })),
      // Parallel children can sum to more than their parent; a negative self time means nothing.
      self_ns: selfNs > 0n ? selfNs : 0n,
    };
  });
}

export function toApiLogs(logs: LogRow[]) {
  return logs.map((log) => ({
    log_id: log.logId,
    ts_ns: log.tsNs,
    span_id: log.spanId,
    service_name: log.serviceName,
    severity_number: log.severityNumber,
    severity_text: log.severityText,
    body: log.body,
  }));
}

export function registerTraceRoutes(app: FastifyInstance, repo: TraceRepo, context: RequestContext): void {
  app.get<{ Params: { traceId: string } }>('/api/v1/traces/:traceId', async (request) => {
    const traceId = parseTraceId(request.params.traceId);
    const signal = context.signal(request);
    const [spans, logs, storyId] = await Promise.all([repo.traceSpans(traceId, signal), repo.traceLogs(traceId, signal), repo.traceStoryId(traceId, signal)]);
    if (spans.length === 0 && logs.length === 0) throw notFound();
    spans.sort((a, b) => (a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : 0));
    logs.sort((a, b) => (a.tsNs < b.tsNs ? -1 : a.tsNs > b.tsNs ? 1 : 0));
    return { trace_id: traceId, spans: toApiSpans(spans), logs: toApiLogs(logs), story_id: storyId };
  });

  app.get('/api/v1/services', async (request) => repo.services(Date.now(), context.signal(request)));
}
