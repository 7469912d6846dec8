/**
 * Log evidence: per service, templates that appeared, vanished or changed rate, at every
 * severity (a caught exception often changes only INFO lines). Rates are judged against the
 * service's traffic, so a busier window alone does not make every template rise.
 */
import type { OpStat } from '../call-stats.js';
import { countSurprise, perMinute, strengthOf } from './stats.js';
import type { Finding, TemplateCounts } from './types.js';

/** OpenTelemetry severity number of WARN: lines at or above it weigh fully, quieter ones a little less. */
const SEVERITY_WARN = 13;
const QUIET_WEIGHT = 0.8;
const MIN_NEW_HITS = 3;
const MIN_VANISHED_EXPECTED = 5;
const RATE_FACTOR = 2;
/**
 * A service's log lines are expected to follow its traffic: when its callers stop calling it (one of
 * them broke), its lines fall silent without being news. A sudden flood is capped, so that lines
 * which grow far beyond it still show.
 */
const MAX_TRAFFIC_FACTOR = 4;
const MIN_TRAFFIC_CALLS = 30;
const TEXT_CHARS = 160;

/** Window calls per minute over baseline calls per minute, per service with enough calls. */
function trafficFactors(ops: readonly OpStat[], windowFromS: number, windowMinutes: number, baselineMinutes: number): Map<string, number> {
  const calls = new Map<string, { b: number; w: number }>();
  for (const op of ops) {
    const t = calls.get(op.service) ?? { b: 0, w: 0 };
    if (op.minuteS >= windowFromS) t.w += op.calls;
    else t.b += op.calls;
    calls.set(op.service, t);
  }
  const factors = new Map<string, number>();
  for (const [service, t] of calls) {
    if (t.b < MIN_TRAFFIC_CALLS || windowMinutes <= 0 || baselineMinutes <= 0) continue;
    const factor = t.w / windowMinutes / (t.b / baselineMinutes);
    factors.set(service, Math.min(MAX_TRAFFIC_FACTOR, factor));
  }
  return factors;
}

export function templateFindings(
  templates: readonly TemplateCounts[],
  ops: readonly OpStat[],
  windowFromS: number,
  windowMinutes: number,
  baselineMinutes: number,
): Finding[] {
  if (windowMinutes <= 0 || baselineMinutes <= 0) return [];
  const factors = trafficFactors(ops, windowFromS, windowMinutes, baselineMinutes);
  const findings: Finding[] = [];
  for (const t of templates) {
    const meanPerMinute = t.baselineHits / baselineMinutes;
    const variance = t.baselineSquares / baselineMinutes - meanPerMinute ** 2;
    const dispersion = meanPerMinute > 0 ? Math.min(20, Math.max(1, variance / meanPerMinute)) : 1;
    const byTime = Math.max(meanPerMinute, 0.5 / baselineMinutes) * windowMinutes;
    // A line may follow the service's traffic (one per request) or the clock (a timer's job): a
    // change is news only when it is surprising under both.
    const factor = factors.get(t.service);
    const candidates = factor === undefined ? [byTime] : [byTime, Math.max(byTime * factor, 1e-3)];
    const judged = candidates.map((expected) => ({ expected, z: countSurprise(t.windowHits, expected, dispersion) }));
    const calmest = judged.reduce((a, b) => (Math.abs(b.z) < Math.abs(a.z) ? b : a));
    if (judged.some((j) => Math.sign(j.z) !== Math.sign(calmest.z))) continue;
    const { expected, z } = calmest;
    let change: string | null = null;
    if (t.baselineHits === 0 && t.windowHits >= MIN_NEW_HITS) change = `new log line in ${t.service}`;
    else if (t.windowHits === 0 && expected >= MIN_VANISHED_EXPECTED) change = `log line gone from ${t.service}`;
    else if (t.baselineHits > 0 && t.windowHits >= RATE_FACTOR * expected) change = `log line in ${t.service} ${rateWords(t.windowHits / expected)}`;
    else if (t.windowHits > 0 && t.windowHits * RATE_FACTOR <= expected) change = `log line in ${t.service} ${rateWords(t.windowHits / expected)}`;
    if (change === null) continue;
    const strength = strengthOf(Math.abs(z)) * (t.maxSeverity >= SEVERITY_WARN ? 1 : QUIET_WEIGHT);
    if (strength <= 0) continue;
    const before = perMinute(t.baselineHits, baselineMinutes);
    const after = perMinute(t.windowHits, windowMinutes);
    findings.push({
      kind: 'log_template',
      summary: `${change} (${before}/min → ${after}/min): ${clip(t.template)}`,
      strength,
      service: t.service,
      operation: null,
      caller: null,
      callee: null,
      fingerprint: null,
      template_id: t.templateId,
      before,
      after,
      unit: 'per_min',
    });
  }
  return findings;
}

function rateWords(ratio: number): string {
  return ratio >= 1 ? `${ratio >= 10 ? Math.round(ratio) : ratio.toFixed(1)}x as often` : `down to ${Math.round(ratio * 100)}% of its usual rate`;
}

function clip(text: string): string {
  return text.length <= TEXT_CHARS ? text : `${text.slice(0, TEXT_CHARS - 1)}…`;
}
