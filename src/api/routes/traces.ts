import type { FastifyInstance } from 'fastify';
import { toApiSpan } from '../../analysis/api-span.js';
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

/** The contract's Span shape for every span of a trace. */
export function toApiSpans(spans: SpanRow[]) {
  const childNs = new Map<string, bigint>();
  for (const span of spans) {
    if (span.parentSpanId === '') continue;
    childNs.set(span.parentSpanId, (childNs.get(span.parentSpanId) ?? 0n) + (span.endNs - span.startNs));
  }
  return spans.map((span) => toApiSpan(span, childNs.get(span.spanId) ?? 0n));
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
