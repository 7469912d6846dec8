/**
 * Output shapes of the trace analysis. Field names are the contract's snake_case JSON names so that
 * a story goes to the API, the store and the stories topic without renaming; every `*_ns` value is a
 * bigint because Unix nanoseconds exceed 2^53 and must stay exact end to end.
 */
import type { PlainAttrPair } from '../model/attr-marks.js';
import type { SpanKind, SpanStatus } from '../model/signals.js';

export type StoryKind = 'error' | 'slow';
export type StoryFlag = 'incomplete' | 'truncated';

export interface RootCause {
  service: string;
  span_name: string;
  span_kind: SpanKind;
  span_id: string;
  /** The failure message (status, exception, first ERROR log, `error`); `slow` for a slow story. */
  message: string;
  /** The exception event's `exception.type`; '' when the span carries none. */
  exception_type: string;
}

export interface PathSpan {
  span_id: string;
  service: string;
  name: string;
  kind: SpanKind;
  status: SpanStatus;
  start_ns: bigint;
  duration_ns: bigint;
}

export interface CriticalSegment {
  span_id: string;
  service: string;
  name: string;
  start_ns: bigint;
  end_ns: bigint;
}

export interface TopContributor {
  span_id: string;
  service: string;
  name: string;
  self_time_ns: bigint;
}

export interface CriticalPath {
  /** Time order; each segment is time during which that span itself (not a child) held the path. */
  segments: CriticalSegment[];
  /** Up to 3 spans with the most self time on the path, largest first. */
  top: TopContributor[];
}

export interface SlowerOp {
  op: string;
  duration_ns: bigint;
  baseline_p95_ns: bigint;
}

export interface BaselineDiff {
  new_ops: string[];
  missing_ops: string[];
  slower_ops: SlowerOp[];
}

export interface StoryLog {
  ts_ns: bigint;
  service: string;
  span_id: string;
  severity_number: number;
  severity_text: string;
  body: string;
}

/** DESIGN.md §5: the element shape the contract leaves open. */
export interface AlsoFailed {
  span_id: string;
  service: string;
  span_name: string;
  message: string;
  end_ns: bigint;
}

/** A story exactly as the contract's Story table. */
export interface Story {
  story_id: string;
  fingerprint: string;
  kind: StoryKind;
  ts_ns: bigint;
  duration_ns: bigint;
  trace_id: string;
  endpoint_service: string;
  endpoint_name: string;
  root_cause: RootCause;
  summary: string;
  path_services: string[];
  path_spans: PathSpan[];
  critical_path: CriticalPath;
  baseline_diff: BaselineDiff | null;
  logs: StoryLog[];
  also_failed: AlsoFailed[];
  span_count: number;
  flags: StoryFlag[];
}

/** A span in the trace API's shape (the contract's Trace section). */
export interface ApiSpan {
  span_id: string;
  parent_span_id: string;
  service_name: string;
  span_name: string;
  kind: SpanKind;
  start_ns: bigint;
  duration_ns: bigint;
  status: SpanStatus;
  status_message: string;
  attrs: PlainAttrPair[];
  resource: PlainAttrPair[];
  events: { ts_ns: bigint; name: string; attrs: PlainAttrPair[] }[];
  /** Duration minus the direct children's durations, floored at 0 (parallel children can exceed it). */
  self_ns: bigint;
}

/**
 * The `svc.stories` record (DESIGN.md §5): the story, except that `root_cause` is the full span and
 * the critical path's segments and its top contributors are separate top-level fields.
 */
export interface StoryRecord extends Omit<Story, 'root_cause' | 'critical_path'> {
  root_cause: ApiSpan;
  critical_path: CriticalSegment[];
  top_contributors: TopContributor[];
}

/** The row behind trace search, written for every closed trace whether or not it has a story. */
export interface TraceSummary {
  trace_id: string;
  ts_ns: bigint;
  endpoint_service: string;
  endpoint_name: string;
  duration_ns: bigint;
  is_error: boolean;
  span_count: number;
  /** Distinct services touched, sorted. */
  services: string[];
}

/** Calls from one service into another inside one trace, summed per (parent, child) pair. */
export interface ServiceEdge {
  parent: string;
  child: string;
  calls: number;
  errors: number;
  /** Sum of the child spans' durations; divide by `calls` for the average. */
  total_duration_ns: bigint;
}

/** One operation (`service: span name`) of a trace and its total time in that trace. */
export interface OpDuration {
  op: string;
  /** Sum over the op's spans, so that an N+1 loop shows up as a slower op. */
  duration_ns: bigint;
}

/** What one trace contributes to its endpoint's baseline. */
export interface BaselineSample {
  duration_ns: bigint;
  is_error: boolean;
  ops: OpDuration[];
}
