/**
 * Response declaration of GET /api/v1/incidents (beyond the contract; docs/incidents.md): what changed in
 * a window against the hour before it, as ranked suspects with their evidence, and the window's
 * story groups marked new, rising, chronic or fading.
 */

import { z } from 'zod';
import { storyKind } from './stories.js';
import { count, int64 } from './wire.js';

/**
 * What a piece of evidence measures:
 * - `story_group`: a story group new or rising in the window;
 * - `self_time`: the service's own time per call (its spans minus their children) changed;
 * - `edge_latency`: the time a caller waits on the wire for a callee grew while the callee's own
 *   answer time did not ("the network to or the ingress of the callee"), or calls to a peer that
 *   sends no spans of its own (a database) got slower;
 * - `error_rate`: the share of failing calls where the failure starts (no failing callee below);
 * - `log_template`: a log template appeared, vanished or changed rate;
 * - `traffic`: the service stopped answering (calls to it fail, its own spans stopped).
 */
export const incidentEvidenceKind = z.enum(['story_group', 'self_time', 'edge_latency', 'error_rate', 'log_template', 'traffic']);

export const incidentEvidence = z.strictObject({
  kind: incidentEvidenceKind,
  /** One sentence a person reads at a glance. */
  summary: z.string(),
  /** This evidence's share of the suspect's score. */
  score: z.number(),
  service: z.string(),
  operation: z.string().nullable(),
  caller: z.string().nullable(),
  callee: z.string().nullable(),
  /** Set for `story_group` evidence. */
  fingerprint: z.string().nullable(),
  /** Set for `log_template` evidence. */
  template_id: z.string().nullable(),
  /** The measure in the hour before the window and in the window, in `unit`. */
  before: z.number(),
  after: z.number(),
  unit: z.enum(['ms', 'percent', 'per_min']),
});

export const incidentSuspect = z.strictObject({
  /** 1 for the likeliest. */
  rank: count,
  /** The service (or a peer that sends no spans, such as a database, named as its callers name it). */
  service: z.string(),
  /** The operation most of the evidence points at, when one does. */
  operation: z.string().nullable(),
  /** The call most of the evidence points at, when the evidence is about a call. */
  edge: z.strictObject({ caller: z.string(), callee: z.string() }).nullable(),
  /** 0..100: how strongly the window's changes point here. */
  score: z.number(),
  /** One sentence: the suspect and its strongest evidence. */
  summary: z.string(),
  /** The strongest of each kind first, then the rest; strongest first within each part. */
  evidence: z.array(incidentEvidence),
});

/**
 * A story group's change: `new` (no story in the hour before), `rising` (clearly more per minute
 * than in the hour before), `chronic` (about as many as in the hour before: a standing error, not
 * this window's news), `fading` (clearly fewer).
 */
export const incidentGroupTrend = z.enum(['new', 'rising', 'chronic', 'fading']);

export const incidentGroup = z.strictObject({
  fingerprint: z.string(),
  kind: storyKind,
  summary: z.string(),
  rc_service: z.string(),
  rc_span_name: z.string(),
  endpoint_service: z.string(),
  endpoint_name: z.string(),
  /** Stories in the window. */
  stories: count,
  /** Stories in the hour before the window. */
  baseline_stories: count,
  trend: incidentGroupTrend,
  sample_story_id: z.string(),
});

export const incidents = z.strictObject({
  window_from_ns: int64,
  window_to_ns: int64,
  baseline_from_ns: int64,
  baseline_to_ns: int64,
  /** One sentence: the likeliest suspect and why, or that nothing changed beyond the usual. */
  summary: z.string(),
  /** At most 10, likeliest first; empty when nothing changed beyond the usual. */
  suspects: z.array(incidentSuspect),
  /** The window's story groups: new and rising first, then chronic, then fading; at most 100. */
  groups: z.array(incidentGroup),
});
