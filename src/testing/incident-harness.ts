/**
 * Incident ranking on simulated traffic, in memory: the simulator's traces go through the same
 * trace analysis the assembler runs (stories, per-minute call statistics), its logs through the
 * same miner the logminer runs, and the per-minute sums and counts into the ranking core, exactly
 * as the tables would hold them. For tests and the fault benchmark; the stored path is exercised by
 * the end-to-end test.
 */
import { analyzeTrace } from '../analysis/analyze.js';
import { buildBaselines, type EndpointBaseline } from '../analysis/baseline.js';
import { analyzeIncident } from '../analysis/incidents/rank.js';
import type { GroupCounts, IncidentInputs, IncidentReport, TemplateCounts } from '../analysis/incidents/types.js';
import type { BaselineSample } from '../analysis/types.js';
import { CallStatsAccumulator } from '../assembler/call-stats-accumulator.js';
import type { ThresholdSettings } from '../config/settings.js';
import { LogMiner, DEFAULT_MINER_OPTIONS } from '../mining/miner.js';
import type { LogRow, SpanRow } from '../model/signals.js';
import { createSimulator } from '../simulator/simulate.js';
import type { Fault } from '../simulator/faults.js';

const THRESHOLDS: ThresholdSettings = Object.freeze({
  min_baseline_traces: 50,
  slow_trace_factor: 1.5,
  slow_trace_margin_ms: 100,
  new_op_presence: 0.01,
  missing_op_presence: 0.95,
  slower_op_factor: 2.0,
  slower_op_margin_ms: 50,
});
/** Traffic is generated a few minutes at a time, so memory holds one slice of traces. */
const SLICE_MS = 5 * 60_000;

export interface ScenarioOptions {
  seed: number;
  tracesPerSec: number;
  /** Start of the window, a whole minute (Unix ms); the baseline is the hour before. */
  windowFromMs: number;
  windowMinutes: number;
  faults: Fault[];
}

/** Runs the scenario and ranks the window. */
export function rankScenario(options: ScenarioOptions): IncidentReport {
  return analyzeIncident(scenarioInputs(options));
}

/** What the tables would hold after the scenario: the ranking's inputs. */
export function scenarioInputs(options: ScenarioOptions): IncidentInputs {
  const baselineFromMs = options.windowFromMs - 3_600_000;
  const windowToMs = options.windowFromMs + options.windowMinutes * 60_000;
  const simulator = createSimulator({ seed: options.seed, tracesPerSec: options.tracesPerSec, faults: options.faults });
  const sums = new CallStatsAccumulator(Number.MAX_SAFE_INTEGER);
  const miner = new LogMiner(DEFAULT_MINER_OPTIONS);
  const hits = new Map<string, { service: string; templateId: string; baseline: number; window: number; minutes: Map<number, number> }>();
  const groups = new Map<string, GroupCounts>();
  const samples = new Map<string, BaselineSample[]>();
  let baselines = new Map<string, EndpointBaseline>();
  const windowFromNs = BigInt(options.windowFromMs) * 1_000_000n;

  for (let fromMs = baselineFromMs; fromMs < windowToMs; fromMs += SLICE_MS) {
    // Baselines as the assembler holds them: built from the traces before the window.
    if (fromMs === options.windowFromMs) baselines = buildBaselines(samples, THRESHOLDS);
    const batch = simulator.generate(fromMs, Math.min(windowToMs, fromMs + SLICE_MS));
    for (const log of batch.logs) mineLog(miner, hits, log, options.windowFromMs);
    for (const trace of byTrace(batch.spans, batch.logs)) {
      const analysis = analyzeTrace({
        spans: trace.spans,
        logs: trace.logs,
        truncated: false,
        baseline: (key) => baselines.get(key) ?? null,
        thresholds: THRESHOLDS,
      });
      if (analysis === null) continue;
      sums.add(analysis.callStats);
      if (analysis.trace.ts_ns < windowFromNs) {
        const list = samples.get(analysis.endpointKey) ?? [];
        list.push(analysis.baselineSample);
        samples.set(analysis.endpointKey, list);
      }
      const story = analysis.story;
      if (story === null) continue;
      const group = groups.get(story.fingerprint) ?? {
        fingerprint: story.fingerprint,
        kind: story.kind,
        summary: story.summary,
        rc_service: story.root_cause.service,
        rc_span_name: story.root_cause.span_name,
        rc_span_kind: story.root_cause.span_kind,
        endpoint_service: story.endpoint_service,
        endpoint_name: story.endpoint_name,
        sample_story_id: story.story_id,
        windowStories: 0,
        baselineStories: 0,
      };
      if (story.ts_ns >= windowFromNs) group.windowStories++;
      else group.baselineStories++;
      groups.set(story.fingerprint, group);
    }
  }
  const texts = new Map(miner.templates().map((t) => [t.templateId, t] as const));
  const templates: TemplateCounts[] = [...hits.values()].map((h) => ({
    service: h.service,
    templateId: h.templateId,
    template: texts.get(h.templateId)?.template ?? '',
    maxSeverity: texts.get(h.templateId)?.maxSeverity ?? 0,
    baselineHits: h.baseline,
    windowHits: h.window,
    baselineSquares: [...h.minutes].filter(([minute]) => minute * 60_000 < options.windowFromMs).reduce((a, [, n]) => a + n * n, 0),
  }));
  const stats = sums.take();
  return {
    baselineFromS: baselineFromMs / 1000,
    windowFromS: options.windowFromMs / 1000,
    windowToS: windowToMs / 1000,
    ops: stats.ops,
    calls: stats.calls,
    groups: [...groups.values()],
    templates,
  };
}

function mineLog(
  miner: LogMiner,
  hits: Map<string, { service: string; templateId: string; baseline: number; window: number; minutes: Map<number, number> }>,
  log: LogRow,
  windowFromMs: number,
): void {
  const timeMs = Number(log.tsNs / 1_000_000n);
  const cluster = miner.mine(log.serviceName, log.body, timeMs, log.severityNumber);
  const key = `${log.serviceName}\u0000${cluster.id}`;
  const h = hits.get(key) ?? { service: log.serviceName, templateId: cluster.id, baseline: 0, window: 0, minutes: new Map<number, number>() };
  if (timeMs >= windowFromMs) h.window++;
  else h.baseline++;
  const minute = Math.floor(timeMs / 60_000);
  h.minutes.set(minute, (h.minutes.get(minute) ?? 0) + 1);
  hits.set(key, h);
}

function* byTrace(spans: readonly SpanRow[], logs: readonly LogRow[]): Generator<{ spans: SpanRow[]; logs: LogRow[] }> {
  const traces = new Map<string, { spans: SpanRow[]; logs: LogRow[] }>();
  for (const span of spans) {
    const t = traces.get(span.traceId) ?? { spans: [], logs: [] };
    t.spans.push(span);
    traces.set(span.traceId, t);
  }
  for (const log of logs) traces.get(log.traceId)?.logs.push(log);
  yield* traces.values();
}
