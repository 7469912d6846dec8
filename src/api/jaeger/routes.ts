/**
 * Jaeger's HTTP JSON query API under /jaeger, read-only, over the same store reads as svc's own
 * routes: Grafana's Jaeger data source and Jaeger clients point at `http://host:8090/jaeger`.
 * Answers and refusals take Jaeger's `{data, total, limit, offset, errors}` envelope and statuses.
 */

import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { Store } from '../../model/store.js';
import { oldestAllowedNs } from '../../store/lifetimes.js';
import { readEdgeTotals } from '../../store/reads/service-edges.js';
import { findTraceIdsBySpan, readOperations } from '../../store/reads/span-search.js';
import { listServices } from '../../store/services.js';
import type { readOptions } from '../data-route.js';
import { classifyError } from '../errors.js';
import type { RequestContext } from '../request-context.js';
import type { RouteModule } from '../server.js';
import { jaegerDependencies, jaegerOperationNames, jaegerOperations, jaegerServices, jaegerTraces, type JaegerTrace } from '../schemas/jaeger.js';
import { jaegerTraceIdOf, toJaegerTrace } from './jaeger-trace.js';
import {
  DEFAULT_DEPENDENCIES_LOOKBACK_MS,
  JaegerError,
  MAX_SEARCH_LIMIT,
  badParam,
  formValue,
  parseJaegerTraceId,
  parseTraceSearch,
  timeParam,
} from './params.js';
import { parseGoInt } from './go-text.js';
import { MAX_ANSWER_SPANS, readTraceSpans } from './trace-reads.js';
import { registerJaegerV3Routes } from './routes-v3.js';
import { jaegerRouteDeclarer } from './jaeger-route.js';

/** The path prefix: Grafana's data source URL is the API's address plus this. */
export const JAEGER_PREFIX = '/jaeger';

const JAEGER_SPAN_KINDS = new Set(['', 'unspecified', 'internal', 'server', 'client', 'producer', 'consumer']);

function envelope<T>(data: T, total = 0) {
  return { data, total, limit: 0, offset: 0, errors: null };
}

/** Any failure as Jaeger's error envelope: its own refusals with their status, the store's as svc answers them. */
function sendError(reply: FastifyReply, error: unknown): FastifyReply {
  const { status, message } = error instanceof JaegerError ? error : classifyError(error).apiError;
  return reply.code(status).send({ data: null, total: 0, limit: 0, offset: 0, errors: [{ code: status, msg: message }] });
}

async function readTraces(
  store: Store,
  traceIds: readonly string[],
  options: ReturnType<typeof readOptions>,
  nowMs: number,
): Promise<Map<string, JaegerTrace>> {
  const { byTrace, cut } = await readTraceSpans(store, traceIds, options, nowMs);
  const warnings = cut ? [`this answer holds at most ${MAX_ANSWER_SPANS} spans: later spans were left out`] : null;
  return new Map([...byTrace].map(([traceId, rows]) => [traceId, toJaegerTrace(traceId, rows, warnings)]));
}

function registerJaegerRoutes(app: FastifyInstance, store: Store, nowMs: () => number, context: RequestContext): void {
  const route = jaegerRouteDeclarer(app, context, JAEGER_PREFIX, sendError);

  route('/api/services', jaegerServices, z.object({}), async ({ options }) => {
    const services = await listServices(store, nowMs(), options);
    // Jaeger answers null, not an empty list, while it knows no service.
    return envelope(services.length === 0 ? null : services, services.length);
  });

  const operations = async (service: string, spanKind: string, options: ReturnType<typeof readOptions>) => {
    const rows = await readOperations(store, service, oldestAllowedNs('spans', nowMs()), options);
    return rows
      .map((row) => ({ name: row.name, spanKind: row.kind === 'unspecified' ? '' : row.kind }))
      .filter((row) => spanKind === '' || row.spanKind === spanKind);
  };

  route('/api/services/:service/operations', jaegerOperationNames, z.object({ service: z.string() }), async ({ params, options }) => {
    const names = [...new Set((await operations(params.service ?? '', '', options)).map((row) => row.name))];
    // Jaeger answers null, not an empty list, for a service it does not know.
    return envelope(names.length === 0 ? null : names, names.length);
  });

  route('/api/operations', jaegerOperations, z.object({}), async ({ query, options }) => {
    const service = formValue(query, 'service');
    if (service === '') throw badParam("parameter 'service' is required");
    const spanKind = formValue(query, 'spanKind');
    if (!JAEGER_SPAN_KINDS.has(spanKind)) return envelope([], 0);
    const rows = await operations(service, spanKind === 'unspecified' ? '' : spanKind, options);
    return envelope(rows, rows.length);
  });

  route('/api/traces', jaegerTraces, z.object({}), async ({ query, options }) => {
    const now = nowMs();
    const search = parseTraceSearch(query, now);
    if (search.traceIds.length > 0) {
      const found = await readTraces(store, search.traceIds, options, now);
      const missing = search.traceIds.filter((id) => !found.has(id)).map((id) => ({ msg: 'trace not found', traceID: jaegerTraceIdOf(id) }));
      return { ...envelope([...found.values()]), errors: missing.length > 0 ? missing : null };
    }
    if (search.limit <= 0 || search.limit > MAX_SEARCH_LIMIT) throw new JaegerError(500, 'search depth must be greater than 0 and less than max traces');
    const oldestNs = oldestAllowedNs('spans', now);
    const traceIds = await findTraceIdsBySpan(
      store,
      {
        service: search.service,
        operation: search.operation === '' ? undefined : search.operation,
        fromNs: search.startNs > oldestNs ? search.startNs : oldestNs,
        toNs: search.endNs,
        minDurationNs: search.minDurationNs === 0n ? undefined : search.minDurationNs,
        maxDurationNs: search.maxDurationNs === 0n ? undefined : search.maxDurationNs,
        tags: search.tags,
        // No answer holds more traces than spans: more ids would only be read to be left out.
        limit: Math.min(search.limit, MAX_ANSWER_SPANS),
      },
      options,
    );
    const traces = await readTraces(store, traceIds, options, now);
    return envelope([...traces.values()]);
  });

  route('/api/traces/:traceId', jaegerTraces, z.object({ traceId: z.string() }), async ({ params, query, options }) => {
    const traceId = parseJaegerTraceId(params.traceId ?? '');
    // Grafana sends the trace's range as start/end (µs, or ms from older versions). A trace is read
    // whole whatever the range, so they are only checked to be integers, as Jaeger checks them.
    timeParam(query, 'start', 1n, 0n);
    timeParam(query, 'end', 1n, 0n);
    const traces = await readTraces(store, [traceId], options, nowMs());
    const trace = traces.get(traceId);
    if (trace === undefined) throw new JaegerError(404, 'trace not found');
    return envelope([trace]);
  });

  route('/api/dependencies', jaegerDependencies, z.object({}), async ({ query, options }) => {
    const now = nowMs();
    const endMs = timeParam(query, 'endTs', 1n, BigInt(now));
    const lookbackText = formValue(query, 'lookback');
    let lookbackMs = BigInt(DEFAULT_DEPENDENCIES_LOOKBACK_MS);
    if (lookbackText !== '') {
      try {
        lookbackMs = parseGoInt(lookbackText, 64);
      } catch (error) {
        throw badParam(`unable to parse param 'lookback': ${(error as Error).message}`);
      }
    }
    if (lookbackMs < 0n) throw new JaegerError(500, 'end time must be greater than start time');
    const service = formValue(query, 'service');
    const oldestMs = BigInt(Math.floor(Number(oldestAllowedNs('service_edges', now) / 1_000_000n)));
    const fromMs = endMs - lookbackMs > oldestMs ? endMs - lookbackMs : oldestMs;
    // service_edges holds one row per minute: a minute counts when it starts inside the range.
    const rows = await readEdgeTotals(store, { fromSecs: Math.ceil(Number(fromMs) / 1000), toSecs: Math.ceil(Number(endMs) / 1000) }, options);
    const links = rows
      .filter((row) => service === '' || row.parent === service || row.child === service)
      .map((row) => ({ parent: row.parent, child: row.child, callCount: row.calls }));
    return envelope(links);
  });
}

/** The Jaeger query API (its JSON API and its API v3) as one module for createApi's `routes`. `nowMs` injects the clock (tests). */
export function createJaegerRoutes(store: Store, options: { nowMs?: () => number } = {}): RouteModule {
  const nowMs = options.nowMs ?? Date.now;
  return (app, context) => {
    registerJaegerRoutes(app, store, nowMs, context);
    registerJaegerV3Routes(app, store, nowMs, context);
  };
}
