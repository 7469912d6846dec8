/**
 * Story group evidence: a group new or rising in the window is news; one about as frequent as in
 * the hour before is chronic (a standing error, not this window's) and is marked, not ranked.
 */
import type { CallStat } from '../call-stats.js';
import { countSurprise, NOISE_Z, perMinute, strengthOf } from './stats.js';
import type { Finding, GroupCounts, GroupTrend, IncidentGroup } from './types.js';

/** Chronic groups still wander more than Poisson says (bursts of one user's retries). */
const STORY_DISPERSION = 1.5;
/** A rising group has at least this many times the stories the baseline predicts. */
const RISE_FACTOR = 1.5;
/**
 * A slow story's root cause is the span with most own time on its critical path: often the caller
 * waiting on a slow network or a queue, not where the time went. Latency evidence says that
 * directly, so a slow group counts this much of an error group.
 */
const SLOW_GROUP_WEIGHT = 0.5;
export const MAX_GROUPS = 100;

export interface GroupReading {
  groups: IncidentGroup[];
  findings: Finding[];
}

/** Trends of the window's groups and evidence from the new and rising ones. */
export function readGroups(
  counts: readonly GroupCounts[],
  calls: readonly CallStat[],
  windowMinutes: number,
  baselineMinutes: number,
  windowFromS: number,
): GroupReading {
  const judged = counts
    .filter((g) => g.windowStories > 0)
    .map((g) => {
      const expected = baselineMinutes > 0 ? (g.baselineStories * windowMinutes) / baselineMinutes : 0;
      const z = countSurprise(g.windowStories, g.baselineStories === 0 ? (0.5 * windowMinutes) / Math.max(baselineMinutes, 1) : expected, STORY_DISPERSION);
      let trend: GroupTrend = 'chronic';
      if (g.baselineStories === 0) trend = 'new';
      else if (z >= NOISE_Z && g.windowStories >= RISE_FACTOR * expected) trend = 'rising';
      else if (z <= -NOISE_Z && g.windowStories * RISE_FACTOR <= expected) trend = 'fading';
      return { g, z, trend };
    });
  const order: Record<GroupTrend, number> = { new: 0, rising: 0, chronic: 1, fading: 2 };
  judged.sort(
    (a, b) =>
      order[a.trend] - order[b.trend] ||
      (order[a.trend] === 0 ? b.z - a.z : b.g.windowStories - a.g.windowStories) ||
      (a.g.fingerprint < b.g.fingerprint ? -1 : 1),
  );
  const groups = judged.slice(0, MAX_GROUPS).map(({ g, trend }) => ({
    fingerprint: g.fingerprint,
    kind: g.kind,
    summary: g.summary,
    rc_service: g.rc_service,
    rc_span_name: g.rc_span_name,
    endpoint_service: g.endpoint_service,
    endpoint_name: g.endpoint_name,
    stories: g.windowStories,
    baseline_stories: g.baselineStories,
    trend,
    sample_story_id: g.sample_story_id,
  }));
  const findings: Finding[] = [];
  for (const { g, z, trend } of judged) {
    if (trend !== 'new' && trend !== 'rising') continue;
    const strength = strengthOf(z) * (g.kind === 'slow' ? SLOW_GROUP_WEIGHT : 1);
    if (strength <= 0) continue;
    const callee = g.rc_span_kind === 'client' ? calleeOf(g.rc_service, g.rc_span_name, calls, windowFromS) : null;
    findings.push({
      kind: 'story_group',
      summary: `${trend} ${g.kind} story group: ${g.summary} (${g.windowStories} in the window, ${g.baselineStories} in the hour before)`,
      strength,
      service: callee ?? g.rc_service,
      operation: callee === null ? g.rc_span_name : null,
      caller: callee === null ? null : g.rc_service,
      callee,
      fingerprint: g.fingerprint,
      template_id: null,
      before: perMinute(g.baselineStories, baselineMinutes),
      after: perMinute(g.windowStories, windowMinutes),
      unit: 'per_min',
    });
  }
  return { groups, findings };
}

/** What a client span of `caller` named `operation` called most in the window (null when unknown). */
function calleeOf(caller: string, operation: string, calls: readonly CallStat[], windowFromS: number): string | null {
  const byCallee = new Map<string, number>();
  for (const c of calls) {
    if (c.caller !== caller || c.operation !== operation || c.minuteS < windowFromS) continue;
    byCallee.set(c.callee, (byCallee.get(c.callee) ?? 0) + c.calls);
  }
  let best: string | null = null;
  let bestCalls = 0;
  for (const [callee, n] of byCallee) if (n > bestCalls) [best, bestCalls] = [callee, n];
  return best;
}
