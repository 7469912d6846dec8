/**
 * analyzeTrace: one closed trace in, its summary row, service edges, baseline sample and (when it
 * failed or was slow) its story out. Pure: no I/O, no clock.
 */
import type { ThresholdSettings } from '../config/settings.js';
import type { LogRow, SpanRow } from '../model/signals.js';
import { endpointKey, type EndpointBaseline } from './baseline.js';
import { baselineDiff } from './baseline-diff.js';
import { callStats, type CallStats } from './call-stats.js';
import { criticalPath, type CriticalPathResult } from './critical-path.js';
import { deriveEndpoint, type Endpoint } from './endpoint.js';
import { isFailing, logsBySpan } from './failure.js';
import { fingerprint } from './fingerprint.js';
import { traceOps } from './ops.js';
import { serviceEdges } from './edges.js';
import { errorRootCause } from './root-cause.js';
import { pathServices, pathSpans } from './story-path.js';
import { storyLogs } from './story-logs.js';
import { storyRecord } from './story-record.js';
import { errorSummary, slowSummary, unreachableSummary } from './summary.js';
import { slowTraceLimitNs } from './thresholds.js';
import { buildSpanTree, type SpanTree } from './tree.js';
import type { BaselineSample, OpDuration, RootCause, ServiceEdge, Story, StoryFlag, StoryKind, StoryRecord, TraceSummary } from './types.js';

export interface AnalyzeInput {
  spans: SpanRow[];
  logs: LogRow[];
  /** The trace was closed early (span or buffer limit). */
  truncated: boolean;
  /**
   * The effective baseline of the trace's endpoint (see BaselineCarry), or null; or a lookup by
   * endpoint key, for callers (the assembler) that cannot know the endpoint before the tree is built.
   */
  baseline: EndpointBaseline | null | ((endpointKey: string) => EndpointBaseline | null);
  thresholds: ThresholdSettings;
}

export interface TraceAnalysis {
  trace: TraceSummary;
  /** endpointKey(endpoint_service, endpoint_name): where this trace's baseline lives. */
  endpointKey: string;
  story: Story | null;
  /** The stories-topic record of `story`. */
  storyRecord: StoryRecord | null;
  /** The full root-cause span of `story`. */
  rootCauseSpan: SpanRow | null;
  edges: ServiceEdge[];
  /** Per-minute operation and call statistics, for incident analysis. */
  callStats: CallStats;
  ops: OpDuration[];
  baselineSample: BaselineSample;
}

/** Analyses one trace; null when it has no spans (a trace of logs only produces nothing). */
export function analyzeTrace(input: AnalyzeInput): TraceAnalysis | null {
  if (input.spans.length === 0) return null;
  const tree = buildSpanTree(input.spans);
  const root = tree.spans[tree.rootIndex];
  const endpoint = deriveEndpoint(root);
  const logsBySpanId = logsBySpan(input.logs);
  const failing = tree.spans.map((span) => isFailing(span, logsBySpanId.get(span.spanId)));
  const isError = failing.includes(true);
  const durationNs = root.endNs - root.startNs;
  const ops = traceOps(tree.spans);
  const key = endpointKey(endpoint.service, endpoint.name);
  const baseline = typeof input.baseline === 'function' ? input.baseline(key) : input.baseline;

  const trace: TraceSummary = {
    trace_id: root.traceId,
    ts_ns: root.startNs,
    endpoint_service: endpoint.service,
    endpoint_name: endpoint.name,
    duration_ns: durationNs,
    is_error: isError,
    span_count: tree.spans.length,
    services: [...new Set(tree.spans.map((s) => s.serviceName))].sort(),
  };

  const context: StoryContext = { input, baseline, tree, endpoint, ops, durationNs };
  let built: BuiltStory | null = null;
  if (isError) {
    const rc = errorRootCause(tree, failing, logsBySpanId);
    if (rc !== null) {
      const rcSpan = tree.spans[rc.index];
      const unreachable = rcSpan.kind === 'client' && tree.children[rc.index].length === 0;
      built = buildStory(context, 'error', rc.index, {
        message: rc.message,
        exceptionType: rc.exceptionType,
        summary: unreachable ? unreachableSummary(rcSpan, rc.message) : errorSummary(rcSpan, rc.message),
        alsoFailed: rc.alsoFailed,
      });
    }
  } else if (baseline !== null && isSlow(durationNs, baseline, input.thresholds)) {
    built = buildSlowStory(context, baseline);
  }

  return {
    trace,
    endpointKey: key,
    story: built?.story ?? null,
    storyRecord: built === null ? null : storyRecord(built.story, tree, built.rcIndex),
    rootCauseSpan: built === null ? null : tree.spans[built.rcIndex],
    edges: serviceEdges(tree, failing),
    callStats: callStats(tree, failing),
    ops,
    baselineSample: { duration_ns: durationNs, is_error: isError, ops },
  };
}

/** The contract's slow rule: trusted baseline and duration > max(p99 x factor, p99 + margin). */
export function isSlow(durationNs: bigint, baseline: EndpointBaseline | null, thresholds: ThresholdSettings): boolean {
  if (baseline === null || !baseline.trusted) return false;
  return durationNs > slowTraceLimitNs(baseline.p99_ns, thresholds);
}

interface StoryContext {
  input: AnalyzeInput;
  baseline: EndpointBaseline | null;
  tree: SpanTree;
  endpoint: Endpoint;
  ops: OpDuration[];
  durationNs: bigint;
  path?: CriticalPathResult;
}

interface BuiltStory {
  story: Story;
  rcIndex: number;
}

function buildSlowStory(context: StoryContext, baseline: EndpointBaseline): BuiltStory {
  const path = criticalPath(context.tree);
  context.path = path;
  // The span holding most critical-path time; a zero-length root has no path and is its own cause.
  const holderId = path.top[0]?.span_id;
  const rcIndex = holderId === undefined ? context.tree.rootIndex : context.tree.spans.findIndex((s) => s.spanId === holderId);
  const holder = context.tree.spans[rcIndex];
  return buildStory(context, 'slow', rcIndex, {
    message: 'slow',
    exceptionType: '',
    summary: slowSummary({
      endpointName: context.endpoint.name,
      endpointService: context.endpoint.service,
      durationNs: context.durationNs,
      baselineP99Ns: baseline.p99_ns,
      holder,
      holderSelfNs: path.selfTimeNs.get(rcIndex) ?? 0n,
    }),
    alsoFailed: [],
  });
}

interface KindParts {
  message: string;
  exceptionType: string;
  summary: string;
  alsoFailed: Story['also_failed'];
}

function buildStory(context: StoryContext, kind: StoryKind, rcIndex: number, parts: KindParts): BuiltStory {
  const { input, tree, endpoint } = context;
  const root = tree.spans[tree.rootIndex];
  const rcSpan = tree.spans[rcIndex];
  const path = context.path ?? criticalPath(tree);
  const rootCause: RootCause = {
    service: rcSpan.serviceName,
    span_name: rcSpan.name,
    span_kind: rcSpan.kind,
    span_id: rcSpan.spanId,
    message: parts.message,
    exception_type: parts.exceptionType,
  };
  const spansOnPath = pathSpans(tree, rcIndex);
  const flags: StoryFlag[] = [];
  if (tree.incomplete) flags.push('incomplete');
  if (input.truncated) flags.push('truncated');
  const story: Story = {
    story_id: root.traceId,
    fingerprint: fingerprint({
      kind,
      endpointService: endpoint.service,
      endpointName: endpoint.name,
      rcService: rcSpan.serviceName,
      rcSpanName: rcSpan.name,
      rcMessage: parts.message,
    }),
    kind,
    ts_ns: root.startNs,
    duration_ns: context.durationNs,
    trace_id: root.traceId,
    endpoint_service: endpoint.service,
    endpoint_name: endpoint.name,
    root_cause: rootCause,
    summary: parts.summary,
    path_services: pathServices(spansOnPath),
    path_spans: spansOnPath,
    critical_path: { segments: path.segments, top: path.top },
    baseline_diff: baselineDiff(context.ops, context.baseline, input.thresholds),
    logs: storyLogs(input.logs),
    also_failed: parts.alsoFailed,
    span_count: tree.spans.length,
    flags,
  };
  return { story, rcIndex };
}
