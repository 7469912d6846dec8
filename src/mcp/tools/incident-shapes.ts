/** Compact shapes of the incident analysis (/api/v1/incidents) for agents, typed from its declaration. */

import type { z } from 'zod';
import type { incidentEvidence, incidentGroup, incidentSuspect } from '../../api/schemas/incidents.js';
import { clip } from '../bound.js';
import { exactValues } from '../exact.js';

type Suspect = z.output<typeof incidentSuspect>;
type Evidence = z.output<typeof incidentEvidence>;
type IncidentGroup = z.output<typeof incidentGroup>;

/** Evidence listed per suspect: the strongest three say why; the rest are on the Stories page. */
export const EVIDENCE_SHOWN = 3;

export interface CompactEvidence {
  kind: Evidence['kind'];
  summary: string;
  /** Present for story-group evidence: get_story_group takes it. */
  fingerprint?: string;
  /** Present for log-template evidence: get_log_template takes it. */
  template_id?: string;
}

/** A suspect as the API ranks it, its evidence cut to the strongest few sentences. */
export type CompactSuspect = Pick<Suspect, 'rank' | 'service' | 'operation' | 'edge' | 'score' | 'summary'> & { evidence: CompactEvidence[] };

function compactEvidence(evidence: Evidence): CompactEvidence {
  return {
    kind: evidence.kind,
    summary: clip(evidence.summary, 200),
    ...(evidence.fingerprint === null ? {} : { fingerprint: evidence.fingerprint }),
    ...(evidence.template_id === null ? {} : { template_id: evidence.template_id }),
  };
}

/** A suspect with its strongest evidence as sentences (and the ids that lead on). */
export function compactSuspect(suspect: Suspect): CompactSuspect {
  return {
    rank: suspect.rank,
    service: suspect.service,
    operation: suspect.operation,
    edge: suspect.edge,
    score: Math.round(suspect.score * 10) / 10,
    summary: clip(suspect.summary, 300),
    evidence: suspect.evidence.slice(0, EVIDENCE_SHOWN).map(compactEvidence),
  };
}

/** A story group of the incident window with its trend and the hour before's count. */
export function compactTrendGroup(group: IncidentGroup): Record<string, unknown> {
  return exactValues({
    trend: group.trend,
    fingerprint: group.fingerprint,
    kind: group.kind,
    stories: group.stories,
    baseline_stories: group.baseline_stories,
    summary: clip(group.summary, 300),
    rc_service: group.rc_service,
    rc_span_name: group.rc_span_name,
    endpoint_service: group.endpoint_service,
    endpoint_name: group.endpoint_name,
    sample_story_id: group.sample_story_id,
  }) as Record<string, unknown>;
}

/** "payments charge" or "cart → payments": where a suspect points, for one text line. */
export function suspectPlace(suspect: CompactSuspect): string {
  if (suspect.edge !== null) return `${suspect.edge.caller} → ${suspect.edge.callee}`;
  return suspect.operation === null ? suspect.service : `${suspect.service} ${suspect.operation}`;
}
