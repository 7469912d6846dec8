import type { FastifyInstance } from 'fastify';
import { toApiSpan } from '../../analysis/api-span.js';
import type { LogRow, SpanRow } from '../../model/signals.js';
import { z } from 'zod';
import { declareRoute } from '../declared-route.js';
import { API_ROUTES } from '../schemas/routes.js';
import { notFound } from '../errors.js';
import { traceIdPath } from '../query-params.js';
import type { TraceRepo } from '../repo.js';
import type { RequestContext } from '../request-context.js';

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

export function registerTraceRoutes(app: FastifyInstance, repo: TraceRepo, context: RequestContext, nowMs: () => number): void {
  const traceRoute = { method: 'GET', ...API_ROUTES['traces/:traceId'], params: z.object({ traceId: traceIdPath }) } as const;
  declareRoute(app, traceRoute, async ({ params: { traceId }, request }) => {
    const signal = context.signal(request);
    const [spans, logs, storyId] = await Promise.all([
      repo.traceSpans(traceId, signal),
      repo.traceLogs(traceId, signal),
      repo.traceStoryId(traceId, nowMs(), signal),
    ]);
    if (spans.length === 0 && logs.length === 0) throw notFound();
    spans.sort((a, b) => (a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : 0));
    logs.sort((a, b) => (a.tsNs < b.tsNs ? -1 : a.tsNs > b.tsNs ? 1 : 0));
    return { trace_id: traceId, spans: toApiSpans(spans), logs: toApiLogs(logs), story_id: storyId };
  });

  declareRoute(app, { method: 'GET', ...API_ROUTES['services'] }, async ({ request }) => repo.services(nowMs(), context.signal(request)));
}
