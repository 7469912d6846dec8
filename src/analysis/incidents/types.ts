/**
 * Incident analysis: what changed in a window against the hour before it, as ranked suspects with
 * evidence. The inputs are per-minute statistics (assembler: operations and calls; logminer:
 * template hits) and story counts; the output has the shape of GET /api/v1/incidents. Pure.
 */
import type { CallStat, OpStat } from '../call-stats.js';

export type EvidenceKind = 'story_group' | 'self_time' | 'edge_latency' | 'error_rate' | 'log_template' | 'traffic';
export type GroupTrend = 'new' | 'rising' | 'chronic' | 'fading';

/** A story group's stories in the window and in the baseline hour. */
export interface GroupCounts {
  fingerprint: string;
  kind: 'error' | 'slow';
  summary: string;
  rc_service: string;
  rc_span_name: string;
  /** The root-cause span's kind: a client span's cause is what it called. */
  rc_span_kind: string;
  endpoint_service: string;
  endpoint_name: string;
  sample_story_id: string;
  windowStories: number;
  baselineStories: number;
}

/** A log template's hits in the baseline and the window. */
export interface TemplateCounts {
  service: string;
  templateId: string;
  template: string;
  maxSeverity: number;
  baselineHits: number;
  windowHits: number;
  /** Sum over the baseline's minutes of the squared hits of each minute: how much they wander. */
  baselineSquares: number;
}

export interface IncidentInputs {
  /** Whole minutes, Unix seconds: the window is [windowFromS, windowToS), the baseline [baselineFromS, windowFromS). */
  baselineFromS: number;
  windowFromS: number;
  windowToS: number;
  ops: readonly OpStat[];
  calls: readonly CallStat[];
  groups: readonly GroupCounts[];
  templates: readonly TemplateCounts[];
  /** Only suspects in this service or below it (what it calls, directly or not). */
  service?: string;
}

export interface Evidence {
  kind: EvidenceKind;
  summary: string;
  score: number;
  service: string;
  operation: string | null;
  caller: string | null;
  callee: string | null;
  fingerprint: string | null;
  template_id: string | null;
  before: number;
  after: number;
  unit: 'ms' | 'percent' | 'per_min';
}

/** Evidence before ranking: `strength` 0..1 is how surely it marks a change at `service`. */
export interface Finding extends Omit<Evidence, 'score'> {
  strength: number;
}

export interface Suspect {
  rank: number;
  service: string;
  operation: string | null;
  edge: { caller: string; callee: string } | null;
  score: number;
  summary: string;
  evidence: Evidence[];
}

export interface IncidentGroup {
  fingerprint: string;
  kind: 'error' | 'slow';
  summary: string;
  rc_service: string;
  rc_span_name: string;
  endpoint_service: string;
  endpoint_name: string;
  stories: number;
  baseline_stories: number;
  trend: GroupTrend;
  sample_story_id: string;
}

export interface IncidentReport {
  summary: string;
  suspects: Suspect[];
  groups: IncidentGroup[];
}
