/** Response declarations of the story routes (the contract's Story group, Story, series, overview, search). */

import { z } from 'zod';
import { count, int64, pair } from './wire.js';

export const storyKind = z.enum(['error', 'slow']);
const spanKind = z.enum(['unspecified', 'internal', 'server', 'client', 'producer', 'consumer']);
const spanStatus = z.enum(['unset', 'ok', 'error']);

export const storyGroup = z.strictObject({
  fingerprint: z.string(),
  kind: storyKind,
  summary: z.string(),
  rc_service: z.string(),
  rc_span_name: z.string(),
  endpoint_service: z.string(),
  endpoint_name: z.string(),
  stories: count,
  first_seen_ns: int64,
  last_seen_ns: int64,
  sample_story_id: z.string(),
  bucket_secs: count,
  buckets: z.array(pair),
});

export const storyGroupExample = z.strictObject({
  story_id: z.string(),
  ts_ns: int64,
  trace_id: z.string(),
  duration_ns: int64,
  summary: z.string(),
});

export const storyGroupDetail = z.strictObject({ group: storyGroup, examples: z.array(storyGroupExample) });

export const pathSpan = z.strictObject({
  span_id: z.string(),
  service: z.string(),
  name: z.string(),
  kind: spanKind,
  status: spanStatus,
  start_ns: int64,
  duration_ns: int64,
});

export const criticalSegment = z.strictObject({ span_id: z.string(), service: z.string(), name: z.string(), start_ns: int64, end_ns: int64 });
export const topContributor = z.strictObject({ span_id: z.string(), service: z.string(), name: z.string(), self_time_ns: int64 });
export const slowerOp = z.strictObject({ op: z.string(), duration_ns: int64, baseline_p95_ns: int64 });

export const storyLog = z.strictObject({
  ts_ns: int64,
  service: z.string(),
  span_id: z.string(),
  severity_number: z.number().int(),
  severity_text: z.string(),
  body: z.string(),
});

/** DESIGN.md §5 fixes the element the contract leaves open. */
export const alsoFailed = z.strictObject({ span_id: z.string(), service: z.string(), span_name: z.string(), message: z.string(), end_ns: int64 });

export const story = z.strictObject({
  story_id: z.string(),
  fingerprint: z.string(),
  kind: storyKind,
  ts_ns: int64,
  duration_ns: int64,
  trace_id: z.string(),
  endpoint_service: z.string(),
  endpoint_name: z.string(),
  root_cause: z.strictObject({
    service: z.string(),
    span_name: z.string(),
    span_kind: spanKind,
    span_id: z.string(),
    message: z.string(),
    exception_type: z.string(),
  }),
  summary: z.string(),
  path_services: z.array(z.string()),
  path_spans: z.array(pathSpan),
  critical_path: z.strictObject({ segments: z.array(criticalSegment), top: z.array(topContributor) }),
  baseline_diff: z.strictObject({ new_ops: z.array(z.string()), missing_ops: z.array(z.string()), slower_ops: z.array(slowerOp) }).nullable(),
  logs: z.array(storyLog),
  also_failed: z.array(alsoFailed),
  span_count: count,
  flags: z.array(z.enum(['incomplete', 'truncated'])),
});

export const storiesSeries = z.strictObject({ bucket_secs: count, error: z.array(pair), slow: z.array(pair) });

export const overview = z.strictObject({
  bucket_secs: count,
  error_stories: count,
  slow_stories: count,
  active_alerts: count,
  spans_per_sec: z.number(),
  data_lag_secs: z.number(),
  stories: storiesSeries,
  spans: z.array(pair),
});

export const traceSearchRow = z.strictObject({
  trace_id: z.string(),
  ts_ns: int64,
  endpoint_service: z.string(),
  endpoint_name: z.string(),
  duration_ns: int64,
  is_error: z.boolean(),
  span_count: count,
  story_id: z.string().nullable(),
  story_kind: z.string().nullable(),
});

export const searchResult = z.strictObject({
  services: z.array(z.string()),
  templates: z.array(z.strictObject({ template_id: z.string(), service: z.string(), template: z.string() })),
  groups: z.array(z.strictObject({ fingerprint: z.string(), kind: storyKind, summary: z.string(), stories: count })),
  trace_id: z.string().nullable(),
});
