// Response shapes of the contract (interface.md, "Resources and their fields" and "Other response
// shapes"). `*_ns` values may exceed 2^53; JSON.parse turns them into approximate numbers, which the
// app accepts because it only displays and positions them. Ids stay strings.

export type Pair = [number, number];

export interface StoryGroup {
  fingerprint: string;
  kind: 'error' | 'slow';
  summary: string;
  rc_service: string;
  rc_span_name: string;
  endpoint_service: string;
  endpoint_name: string;
  stories: number;
  first_seen_ns: number;
  last_seen_ns: number;
  sample_story_id: string;
  bucket_secs: number;
  buckets: Pair[];
}

export interface StoryGroupExample {
  story_id: string;
  ts_ns: number;
  trace_id: string;
  duration_ns: number;
  summary: string;
}

export interface StoryGroupDetail {
  group: StoryGroup;
  examples: StoryGroupExample[];
}

export interface PathSpan {
  span_id: string;
  service: string;
  name: string;
  kind: string;
  status: string;
  start_ns: number;
  duration_ns: number;
}

export interface CriticalSegment {
  span_id: string;
  service: string;
  name: string;
  start_ns: number;
  end_ns: number;
}

export interface TopContributor {
  span_id: string;
  service: string;
  name: string;
  self_time_ns: number;
}

export interface SlowerOp {
  op: string;
  duration_ns: number;
  baseline_p95_ns: number;
}

export interface StoryLog {
  ts_ns: number;
  service: string;
  span_id: string;
  severity_number: number;
  severity_text: string;
  body: string;
}

export interface Story {
  story_id: string;
  fingerprint: string;
  kind: 'error' | 'slow';
  ts_ns: number;
  duration_ns: number;
  trace_id: string;
  endpoint_service: string;
  endpoint_name: string;
  root_cause: { service: string; span_name: string; span_kind: string; span_id: string; message: string; exception_type: string };
  summary: string;
  path_services: string[];
  path_spans: PathSpan[];
  critical_path: { segments: CriticalSegment[]; top: TopContributor[] };
  baseline_diff: { new_ops: string[]; missing_ops: string[]; slower_ops: SlowerOp[] } | null;
  logs: StoryLog[];
  /** Element shape "not shown" by the contract; the design brief fixes it, but render defensively. */
  also_failed: unknown[];
  span_count: number;
  flags: string[];
}

export interface TraceSearchRow {
  trace_id: string;
  ts_ns: number;
  endpoint_service: string;
  endpoint_name: string;
  duration_ns: number;
  is_error: boolean;
  span_count: number;
  story_id: string | null;
  story_kind: string | null;
}

export type KeyValue = [string, unknown];

export interface Span {
  span_id: string;
  parent_span_id: string;
  service_name: string;
  span_name: string;
  kind: string;
  start_ns: number;
  duration_ns: number;
  status: string;
  status_message: string;
  attrs: KeyValue[];
  resource: KeyValue[];
  events: { ts_ns: number; name: string; attrs: KeyValue[] }[];
  self_ns: number;
}

export interface TraceLog {
  log_id: string;
  ts_ns: number;
  span_id: string;
  service_name: string;
  severity_number: number;
  severity_text: string;
  body: string;
}

export interface Trace {
  trace_id: string;
  spans: Span[];
  logs: TraceLog[];
  story_id: string | null;
}

export interface TraceLogTemplate {
  log_id: string;
  template_id: string;
  template: string;
  alert: LogAlert | null;
}

export interface MapEdge {
  parent: string;
  child: string;
  calls: number;
  errors: number;
  error_rate: number;
  avg_duration_ns: number;
}

export interface MapNode {
  service: string;
  calls: number;
  rate: number;
  error_ratio: number;
  p99_ns: number;
  baseline_p99_ns: number;
  health: 'ok' | 'slow' | 'error';
}

export interface ServiceMap {
  edges: MapEdge[];
  nodes: MapNode[];
}

export interface RedBucket {
  bucket: number;
  rate: number;
  error_ratio: number;
  p50_ns: number;
  p95_ns: number;
  p99_ns: number;
}

export interface ServiceRed {
  service: string;
  bucket_secs: number;
  calls: number;
  errors: number;
  buckets: RedBucket[];
}

export interface LogTemplate {
  template_id: string;
  service: string;
  template: string;
  count: number;
  first_seen_ns: number;
  last_seen_ns: number;
  max_severity: number;
  alerting: boolean;
  silence_enabled: boolean;
  bucket_secs: number;
  buckets: Pair[];
}

export interface SilenceSetting {
  enabled: boolean;
  minutes: number;
}

export interface LogTemplateDetail {
  template: Omit<LogTemplate, 'silence_enabled' | 'bucket_secs' | 'buckets'>;
  sample: string;
  bucket_secs: number;
  buckets: Pair[];
  recent: { ts_ns: number; trace_id: string; span_id: string; severity_number: number; story_id: string | null }[];
  alerts: LogAlert[];
  silence: SilenceSetting | null;
}

export interface LogAlert {
  alert_id: string;
  kind: 'new' | 'spike' | 'silence';
  template_id: string;
  service: string;
  template: string;
  started_at_ns: number;
  last_at_ns: number;
  window_count: number;
  peak_count: number;
  baseline_per_window: number;
  active: boolean;
  example_traces: { trace_id: string; story_id: string | null }[];
  baseline_day?: number;
  baseline_week?: number;
}

export interface Overview {
  bucket_secs: number;
  error_stories: number;
  slow_stories: number;
  active_alerts: number;
  spans_per_sec: number;
  data_lag_secs: number;
  stories: StoriesSeries;
  spans: Pair[];
}

export interface StoriesSeries {
  bucket_secs: number;
  error: Pair[];
  slow: Pair[];
}

export interface PipelineSeries {
  metric: string;
  kind: string;
  bucket_secs: number;
  points: [number, number | null][];
}

export interface LagRow {
  group: string;
  topic: string;
  committed: number;
  end: number;
  lag: number;
}

export interface AppConfig {
  trace_viewer_url: string | null;
  dashboard_url: string | null;
  auth_enabled: boolean;
  infra_services: string[];
}

// Log search (routes beyond the contract, documented in docs/logs.md).

export interface LogSearchRow {
  log_id: string;
  ts_ns: number;
  service_name: string;
  severity_number: number;
  severity_text: string;
  body: string;
  trace_id: string;
  span_id: string;
  template_id: string | null;
  template: string | null;
  attrs: KeyValue[];
  resource: KeyValue[];
}

export interface LogSearchPage {
  logs: LogSearchRow[];
  next_cursor: string | null;
}

export const SEVERITY_LEVELS = ['unspecified', 'trace', 'debug', 'info', 'warn', 'error', 'fatal'] as const;
export type SeverityLevel = (typeof SEVERITY_LEVELS)[number];

export type LogSeries = { bucket_secs: number; total: number } & Record<SeverityLevel, [number, number][]>;
