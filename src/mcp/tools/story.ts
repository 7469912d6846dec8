/** get_story: one story, the answer to "why did this request fail or run slow". */

import type { RouteReply } from '../../api/schemas/routes.js';
import { getRoute } from '../api-caller.js';
import { traceIdArg } from '../args.js';
import { clip, fitList, toolAnswer } from '../bound.js';
import { exactValues, nsToMs } from '../exact.js';
import { defineTool } from '../tool.js';

type Row = Record<string, unknown>;
type Story = RouteReply<'stories/:storyId'>;

const MAX_PATH_SPANS = 40;
const MAX_SEGMENTS = 20;
const MAX_DIFF_OPS = 20;
const MAX_ALSO_FAILED = 10;

function compactBaselineDiff(diff: Story['baseline_diff']): Row | null {
  if (diff === null) return null;
  return exactValues({
    new_ops: diff.new_ops.slice(0, MAX_DIFF_OPS),
    missing_ops: diff.missing_ops.slice(0, MAX_DIFF_OPS),
    slower_ops: diff.slower_ops.slice(0, MAX_DIFF_OPS).map((op) => ({
      op: op.op,
      duration_ns: op.duration_ns,
      baseline_p95_ns: op.baseline_p95_ns,
      duration_ms: nsToMs(op.duration_ns),
      baseline_p95_ms: nsToMs(op.baseline_p95_ns),
    })),
  }) as Row;
}

/** The story with long parts bounded: path, critical path, baseline diff, other failures, logs. */
export function compactStory(story: Story): { fixed: Row; logs: Row[] } {
  const pathSpans = story.path_spans;
  const critical = story.critical_path;
  const alsoFailed = story.also_failed;
  const fixed = exactValues({
    story_id: story.story_id,
    trace_id: story.trace_id,
    kind: story.kind,
    summary: story.summary,
    fingerprint: story.fingerprint,
    ts_ns: story.ts_ns,
    duration_ns: story.duration_ns,
    duration_ms: nsToMs(story.duration_ns),
    endpoint_service: story.endpoint_service,
    endpoint_name: story.endpoint_name,
    root_cause: { ...story.root_cause, message: clip(story.root_cause.message, 500) },
    path_services: story.path_services,
    path_spans: pathSpans.slice(0, MAX_PATH_SPANS).map((span) => ({
      span_id: span.span_id,
      service: span.service,
      name: span.name,
      kind: span.kind,
      status: span.status,
      duration_ms: nsToMs(span.duration_ns),
    })),
    ...(pathSpans.length > MAX_PATH_SPANS ? { path_spans_total: pathSpans.length } : {}),
    critical_path: {
      top: critical.top.map((top) => ({
        span_id: top.span_id,
        service: top.service,
        name: top.name,
        self_time_ns: top.self_time_ns,
        self_ms: nsToMs(top.self_time_ns),
      })),
      segments_total: critical.segments.length,
      segments: critical.segments
        .slice(0, MAX_SEGMENTS)
        .map((segment) => ({ span_id: segment.span_id, service: segment.service, name: segment.name, start_ns: segment.start_ns, end_ns: segment.end_ns })),
    },
    baseline_diff: compactBaselineDiff(story.baseline_diff),
    also_failed_total: alsoFailed.length,
    also_failed: alsoFailed.slice(0, MAX_ALSO_FAILED).map((failed) => ({ ...failed, message: clip(failed.message, 300) })),
    span_count: story.span_count,
    flags: story.flags,
  }) as Row;
  const logs = story.logs.map(
    (log) =>
      exactValues({
        ts_ns: log.ts_ns,
        service: log.service,
        span_id: log.span_id,
        severity_text: log.severity_text,
        severity_number: log.severity_number,
        body: clip(log.body, 400),
      }) as Row,
  );
  return { fixed, logs };
}

export const getStoryTool = defineTool({
  name: 'get_story',
  title: 'Get a story',
  description:
    'One story (a failing or slow request, explained) by story_id, which equals its trace id. Returns the root cause (service, span, kind, span_id, message, exception type), ' +
    "the path of services and spans from the endpoint to the root cause, the critical path with its top 3 self-time contributors, the difference from the endpoint's baseline " +
    '(new, missing and slower operations; null without a trusted baseline), other failing spans, and the most severe logs of the trace. Use get_trace for the whole span tree.',
  args: {
    story_id: traceIdArg('story_id').describe('The story id (32 hexadecimal characters; equals the trace id), e.g. a sample_story_id from whats_wrong.'),
  },
  async run(caller, args) {
    const story = await getRoute(caller, 'stories/:storyId', {
      params: { storyId: args.story_id },
      notFoundMessage: `no story ${args.story_id} (the trace may have neither failed nor run slow; try get_trace)`,
    });
    const { fixed, logs } = compactStory(story);
    const { answer } = fitList(
      logs,
      (shown, truncated) => ({ ...fixed, logs_total: logs.length, logs: shown, ...(truncated ? { truncated } : {}) }),
      'logs',
      'read the logs with get_trace',
    );
    const rootCause = fixed.root_cause as Row;
    const top = (fixed.critical_path as { top: Row[] }).top.map((t) => `${String(t.service)} "${String(t.name)}" ${String(t.self_ms)} ms`).join(', ');
    const text =
      `${String(fixed.kind)} story ${String(fixed.story_id)} at ${String(fixed.endpoint_service)} ${String(fixed.endpoint_name)} (${String(fixed.duration_ms)} ms): ${String(fixed.summary)}\n` +
      `Root cause: ${String(rootCause.service)} "${String(rootCause.span_name)}" (span ${String(rootCause.span_id)}): ${String(rootCause.message)}\n` +
      `Path: ${(fixed.path_services as string[]).join(' -> ')}. Critical-path top: ${top || 'none'}. ${logs.length} logs.`;
    return toolAnswer(answer, text);
  },
});
