/**
 * Jaeger's API v3 over HTTP under /jaeger/api/v3 (its grpc-gateway form): traces as OTLP JSON,
 * services and operations, over the same store reads as the JSON API; refusals in its
 * `{"error": {"httpCode", "message"}}` shape with Jaeger's statuses and messages.
 */

import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import type { Store } from '../../model/store.js';
import { oldestAllowedNs } from '../../store/lifetimes.js';
import { findTraceIdsBySpan, readOperations } from '../../store/reads/span-search.js';
import { listServices } from '../../store/services.js';
import type { readOptions } from '../data-route.js';
import { classifyError } from '../errors.js';
import type { RequestContext } from '../request-context.js';
import { jaegerV3Operations, jaegerV3Services, jaegerV3Traces } from '../schemas/jaeger.js';
import { goQuote, parseGoDuration } from './go-text.js';
import { toOtlpTracesData } from './otlp-v3.js';
import { jaegerRouteDeclarer } from './jaeger-route.js';
import { JaegerError, MAX_SEARCH_LIMIT, formValue, parseJaegerTraceId } from './params.js';
import { parseRfc3339Nano } from './rfc3339.js';
import { MAX_ANSWER_SPANS, readTraceSpans } from './trace-reads.js';

const PREFIX = '/jaeger/api/v3';
const BOOL_TEXT = new Set(['1', 't', 'T', 'TRUE', 'true', 'True', '0', 'f', 'F', 'FALSE', 'false', 'False']);

function sendError(reply: FastifyReply, error: unknown): FastifyReply {
  const { status, message } = error instanceof JaegerError ? error : classifyError(error).apiError;
  return reply.code(status).send({ error: { httpCode: status, message } });
}

/** A parameter parsed by `parse`, or Jaeger's 400 naming it. */
function param<T>(name: string, text: string, parse: (text: string) => T): T {
  try {
    return parse(text);
  } catch (error) {
    throw new JaegerError(400, `malformed parameter ${name}: ${(error as Error).message}`);
  }
}

function checkBool(name: string, text: string): void {
  if (text !== '')
    param(name, text, (value) => {
      if (!BOOL_TEXT.has(value)) throw new Error(`strconv.ParseBool: parsing ${goQuote(value)}: invalid syntax`);
    });
}

/** Go's strconv.Atoi. */
function atoi(text: string): number {
  if (!/^[+-]?\d+$/.test(text)) throw new Error(`strconv.Atoi: parsing ${goQuote(text)}: invalid syntax`);
  return Number(text);
}

const noTraces = () => new JaegerError(404, 'No traces found');

export function registerJaegerV3Routes(app: FastifyInstance, store: Store, nowMs: () => number, context: RequestContext): void {
  const route = jaegerRouteDeclarer(app, context, PREFIX, sendError);

  const tracesAnswer = async (traceIds: readonly string[], options: ReturnType<typeof readOptions>) => {
    const { byTrace } = await readTraceSpans(store, traceIds, options, nowMs());
    if (byTrace.size === 0) throw noTraces();
    return { result: toOtlpTracesData([...byTrace.values()]) };
  };

  route('/services', jaegerV3Services, z.object({}), async ({ options }) => ({ services: await listServices(store, nowMs(), options) }));

  route('/operations', jaegerV3Operations, z.object({}), async ({ query, options }) => {
    const spanKind = formValue(query, 'span_kind');
    const rows = await readOperations(store, formValue(query, 'service'), oldestAllowedNs('spans', nowMs()), options);
    const operations = rows
      .map((row) => ({ name: row.name, kind: row.kind === 'unspecified' ? '' : row.kind }))
      .filter((row) => spanKind === '' || row.kind === spanKind)
      .map((row) => (row.kind === '' ? { name: row.name } : { name: row.name, spanKind: row.kind }));
    return { operations };
  });

  route('/traces/:traceId', jaegerV3Traces, z.object({ traceId: z.string() }), async ({ params, query, options }) => {
    const traceId = param('trace_id', params.traceId ?? '', (text) => {
      try {
        return parseJaegerTraceId(text);
      } catch (error) {
        throw new Error((error as Error).message);
      }
    });
    // The range is checked as Jaeger checks it; the trace is read whole whatever it says.
    for (const name of ['start_time', 'end_time']) {
      const text = formValue(query, name);
      if (text !== '') param(name, text, parseRfc3339Nano);
    }
    checkBool('raw_traces', formValue(query, 'raw_traces'));
    return tracesAnswer([traceId], options);
  });

  route('/traces', jaegerV3Traces, z.object({}), async ({ query, options }) => {
    const service = formValue(query, 'query.service_name');
    const operation = formValue(query, 'query.operation_name');
    const minText = formValue(query, 'query.start_time_min');
    const maxText = formValue(query, 'query.start_time_max');
    if (minText === '' || maxText === '') throw new JaegerError(400, 'query.start_time_min and query.start_time_max are required');
    const fromNs = param('query.start_time_min', minText, parseRfc3339Nano);
    const toNs = param('query.start_time_max', maxText, parseRfc3339Nano);
    const numText = formValue(query, 'query.num_traces');
    const limit = numText === '' ? 0 : param('query.num_traces', numText, atoi);
    const minDurationText = formValue(query, 'query.duration_min');
    const maxDurationText = formValue(query, 'query.duration_max');
    const minDurationNs = minDurationText === '' ? 0n : param('query.duration_min', minDurationText, parseGoDuration);
    const maxDurationNs = maxDurationText === '' ? 0n : param('query.duration_max', maxDurationText, parseGoDuration);
    checkBool('query.raw_traces', formValue(query, 'query.raw_traces'));
    // Jaeger's default depth is 0, which its stores refuse, as they refuse a depth past their bound.
    if (limit <= 0 || limit > MAX_SEARCH_LIMIT) throw new JaegerError(500, 'search depth must be greater than 0 and less than max traces');
    const oldestNs = oldestAllowedNs('spans', nowMs());
    const traceIds = await findTraceIdsBySpan(
      store,
      {
        service: service === '' ? undefined : service,
        operation: operation === '' ? undefined : operation,
        fromNs: fromNs > oldestNs ? fromNs : oldestNs,
        toNs,
        minDurationNs: minDurationNs === 0n ? undefined : minDurationNs,
        maxDurationNs: maxDurationNs === 0n ? undefined : maxDurationNs,
        // Jaeger's HTTP gateway does not read query.attributes (its grpc-gateway cannot map them).
        tags: new Map(),
        limit: Math.min(limit, MAX_ANSWER_SPANS),
      },
      options,
    );
    return tracesAnswer(traceIds, options);
  });
}
