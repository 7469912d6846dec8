/** search_traces and get_trace: find traces by the contract's filters, then read one as a topology. */

import { z } from 'zod';
import { getRoute } from '../api-caller.js';
import { limitArg, serviceArg, traceIdArg, windowArgs } from '../args.js';
import { clip, fitList, jsonBytes, MAX_ANSWER_BYTES, MAX_SUMMARY_BYTES, toolAnswer } from '../bound.js';
import { exactValues } from '../exact.js';
import { buildTopology, type Topology } from '../topology.js';
import { defineTool } from '../tool.js';
import { compactTraceRow, endpointLabel } from './shapes.js';

type Row = Record<string, unknown>;

const wholeMsArg = (name: string, meaning: string) =>
  z
    .number()
    .int({ error: `${name} must be a whole number of milliseconds` })
    .min(0, { error: `${name} must not be negative` })
    .optional()
    .describe(meaning);

export const searchTracesTool = defineTool({
  name: 'search_traces',
  title: 'Search traces',
  description:
    'Traces in a window (default the last hour), newest first, each once: trace_id, start, endpoint service and name, root duration, whether it failed, span count, ' +
    "and its story_id/story_kind when it has a story. Filters: service (the trace's endpoint service, or with touched=true any service with a span in it), " +
    'endpoint (exact endpoint name), min_ms/max_ms (root duration bounds), errors=true (failing traces only). Follow with get_trace or get_story.',
  args: {
    ...windowArgs('1h'),
    service: serviceArg('Only traces whose endpoint (root) service is this one; with touched=true, any trace with a span in this service.'),
    touched: z.boolean().optional().describe('With service: match any service with a span in the trace, not only the endpoint service. Default false.'),
    endpoint: z
      .string()
      .min(1)
      .max(200, { error: 'endpoint must be at most 200 characters' })
      .optional()
      .describe('Exact endpoint name (the root span name, e.g. "GET /checkout").'),
    min_ms: wholeMsArg('min_ms', 'Only traces whose root lasted at least this many milliseconds.'),
    max_ms: wholeMsArg('max_ms', 'Only traces whose root lasted at most this many milliseconds; not below min_ms.'),
    errors: z.boolean().optional().describe('true: failing traces only. Default false.'),
    limit: limitArg(500, 20, 'traces'),
  },
  async run(caller, args) {
    const limit = args.limit ?? 20;
    const rows = await getRoute(caller, 'traces/search', { query: { ...args, limit } });
    const compact = rows.map(compactTraceRow);
    const { answer, shown } = fitList(
      compact,
      (items, truncated) => ({ returned: rows.length, traces: items, ...(truncated ? { truncated } : {}) }),
      'traces',
      'narrow with service, endpoint, min_ms, errors or a shorter since, or lower limit',
    );
    const failing = rows.filter((row) => row.is_error === true).length;
    const lines = [
      `${rows.length} traces${rows.length === limit ? ` (the limit; there may be more)` : ''}, ${failing} failing${shown < rows.length ? `; showing ${shown}` : ''}.`,
      ...compact
        .slice(0, 8)
        .map(
          (row) =>
            `- ${String(row.trace_id)} ${endpointLabel(row)} ${String(row.duration_ms)} ms${row.is_error === true ? ' ERROR' : ''}${row.story_id === null ? '' : ` story ${String(row.story_kind)}`}`,
        ),
    ];
    return toolAnswer(answer, lines.join('\n'));
  },
});

const MAX_TRACE_LOGS = 10;

export const getTraceTool = defineTool({
  name: 'get_trace',
  title: 'Get a trace as a compact topology',
  description:
    'One trace as a flat depth-first list of spans: span_id, path (position in the tree: "0.2.1" is the second child of the third child of the root), service, name, kind, ' +
    'start_ms (from the trace start), duration_ms, self_ms (duration minus children) and error (the status message of a failing span). ' +
    'A trace with more than max_spans spans (in scope) is summarised, not dumped: per-service and per-operation totals, and the root, the failing spans and the spans ' +
    "with most self time with their ancestors; hidden_children counts what is not shown. Pass span_id to list only that span's subtree. Also returns the trace's story_id and its most severe logs.",
  args: {
    trace_id: traceIdArg('trace_id').describe('The trace id (32 hexadecimal characters).'),
    span_id: z
      .string()
      .regex(/^[0-9a-fA-F]{16}$/, { error: 'span_id must be 16 hexadecimal characters' })
      .optional()
      .describe('Only this span and its descendants (expand a part of a large trace).'),
    max_spans: z
      .number()
      .int({ error: 'max_spans must be an integer' })
      .min(1, { error: 'max_spans must be within 1..300' })
      .max(300, { error: 'max_spans must be within 1..300' })
      .optional()
      .describe('List at most this many spans (1 to 300, default 100); larger traces are summarised.'),
  },
  async run(caller, args) {
    const trace = await getRoute(caller, 'traces/:traceId', {
      params: { traceId: args.trace_id },
      notFoundMessage: `no trace ${args.trace_id} (neither spans nor logs are stored for it)`,
    });
    const logs = [...trace.logs]
      .sort((a, b) => Number(b.severity_number) - Number(a.severity_number))
      .slice(0, MAX_TRACE_LOGS)
      .map(
        (log) =>
          exactValues({
            ts_ns: log.ts_ns,
            service: log.service_name,
            span_id: log.span_id,
            severity_text: log.severity_text,
            body: clip(log.body, 300),
          }) as Row,
      );
    const focus = args.span_id?.toLowerCase();
    let maxSpans = args.max_spans ?? 100;
    let answer: Row;
    let topology: Topology;
    // Shrink the listing until the answer fits the byte bound (long names and paths cost bytes).
    for (;;) {
      const built = buildTopology(trace.spans, { maxSpans, focusSpanId: focus });
      if ('missingFocus' in built) throw new Error(`span_id ${String(focus)} is not a span of trace ${args.trace_id}`);
      topology = built;
      const note = built.summarised
        ? {
            truncated: {
              field: 'spans',
              shown: built.shown,
              total: built.scope_span_count,
              hint: 'summarised: call get_trace with span_id of a span with hidden_children to expand its subtree, or raise max_spans (up to 300)',
            },
          }
        : {};
      answer = { trace_id: args.trace_id, story_id: trace.story_id, ...built, ...note, logs_total: trace.logs.length, logs };
      const budget = MAX_ANSWER_BYTES - MAX_SUMMARY_BYTES;
      const bytes = jsonBytes(answer);
      if (bytes <= budget || maxSpans === 1) break;
      // Aim at the bound from the bytes the listed spans take, then step down by 5 % until it fits.
      const spanBytes = jsonBytes(built.spans);
      const perSpan = spanBytes / Math.max(1, built.spans.length);
      const aimed = Math.floor((budget - (bytes - spanBytes)) / perSpan);
      maxSpans = Math.max(1, Math.min(aimed, Math.floor(maxSpans * 0.95), maxSpans - 1));
    }
    const failing = topology.spans.filter((span) => span.error !== undefined).slice(0, 3);
    const text =
      `Trace ${args.trace_id}: ${topology.span_count} spans across ${topology.services.length} services, ${topology.duration_ms} ms, ${topology.error_spans} failing spans` +
      `${topology.summarised ? `; summarised, showing ${topology.shown} of ${topology.scope_span_count}` : ''}.` +
      `${trace.story_id === null ? '' : ` Story ${trace.story_id} (get_story).`}` +
      failing.map((span) => `\n- error in ${span.service} "${span.name}" (${span.span_id}, path ${span.path}): ${span.error}`).join('');
    return toolAnswer(answer, text);
  },
});
