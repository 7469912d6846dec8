/** Compact shapes of API objects for agents: the fields that answer "what and where", ids exact. */

import type { RouteReply } from '../../api/schemas/routes.js';
import { clip } from '../bound.js';
import { exactValues, nsToMs } from '../exact.js';

type Row = Record<string, unknown>;
type StoryGroup = RouteReply<'story-groups'>[number];
type LogAlert = RouteReply<'log-alerts'>[number];
type LogTemplate = RouteReply<'log-templates'>[number];
type TraceRow = RouteReply<'traces/search'>[number];

/** A story group without its bucket series. */
export function compactGroup(group: StoryGroup): Row {
  return exactValues({
    fingerprint: group.fingerprint,
    kind: group.kind,
    stories: group.stories,
    summary: clip(group.summary, 300),
    rc_service: group.rc_service,
    rc_span_name: group.rc_span_name,
    endpoint_service: group.endpoint_service,
    endpoint_name: group.endpoint_name,
    first_seen_ns: group.first_seen_ns,
    last_seen_ns: group.last_seen_ns,
    sample_story_id: group.sample_story_id,
  }) as Row;
}

/** A log alert with its template clipped and at most 3 example traces. */
export function compactAlert(alert: LogAlert): Row {
  const examples = alert.example_traces.slice(0, 3);
  return exactValues({
    alert_id: alert.alert_id,
    kind: alert.kind,
    active: alert.active,
    service: alert.service,
    template_id: alert.template_id,
    template: clip(alert.template, 300),
    started_at_ns: alert.started_at_ns,
    last_at_ns: alert.last_at_ns,
    window_count: alert.window_count,
    peak_count: alert.peak_count,
    baseline_per_window: alert.baseline_per_window,
    example_traces: examples,
  }) as Row;
}

/** A log template list item: total count, hits in the window and alerting flag, no series. */
export function compactTemplate(template: LogTemplate): Row {
  return exactValues({
    template_id: template.template_id,
    service: template.service,
    template: clip(template.template, 300),
    hits_in_window: template.buckets.reduce((sum, [, hits]) => sum + Number(hits), 0),
    count: template.count,
    first_seen_ns: template.first_seen_ns,
    last_seen_ns: template.last_seen_ns,
    max_severity: template.max_severity,
    alerting: template.alerting,
  }) as Row;
}

/** A trace search row with its duration in milliseconds beside the exact nanoseconds. */
export function compactTraceRow(row: TraceRow): Row {
  return exactValues({
    trace_id: row.trace_id,
    ts_ns: row.ts_ns,
    endpoint_service: row.endpoint_service,
    endpoint_name: row.endpoint_name,
    duration_ns: row.duration_ns,
    duration_ms: nsToMs(row.duration_ns),
    is_error: row.is_error,
    span_count: row.span_count,
    story_id: row.story_id,
    story_kind: row.story_kind,
  }) as Row;
}

/** "service endpoint" as one label for summaries. */
export const endpointLabel = (row: Row): string => `${String(row.endpoint_service)} ${String(row.endpoint_name)}`;
