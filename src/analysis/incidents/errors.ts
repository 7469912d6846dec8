/**
 * Error evidence: where failures start (a failing span with no failing child), per service and
 * operation and per call edge, and callees that stopped answering (their spans vanished while their
 * callers still call). Failures that only pass a callee's error up are not counted against callers.
 */
import type { CallStat, OpStat } from '../call-stats.js';
import { countSurprise, percent, strengthOf } from './stats.js';
import type { Finding } from './types.js';

/** Absolute rise of the failing share at which its size stops adding to the strength. */
const FULL_RISE = 0.05;
const MIN_WINDOW_EVENTS = 3;

interface Tally {
  events: number;
  exposure: number;
}

/** Failures in a window against the baseline's failing share, with the baseline minutes' dispersion. */
export function rateShift(baseline: Tally, window: Tally, baselineMinutes: readonly Tally[]): { strength: number; before: number; after: number } | null {
  if (window.exposure <= 0 || window.events < MIN_WINDOW_EVENTS) return null;
  const p = (baseline.events + 0.5) / (baseline.exposure + 1);
  const pWindow = window.events / window.exposure;
  if (pWindow < 2 * p) return null;
  const expected = window.exposure * p;
  const z = countSurprise(window.events, expected, rateDispersion(baselineMinutes, p));
  const size = Math.min(1, (pWindow - p) / FULL_RISE);
  const strength = strengthOf(z) * size;
  if (strength <= 0) return null;
  return { strength, before: percent(baseline.events, baseline.exposure), after: percent(window.events, window.exposure) };
}

/** How much more the baseline minutes' failures wander than a steady share `p` would make them (at least 1). */
function rateDispersion(minutes: readonly Tally[], p: number): number {
  if (minutes.length < 5) return 1;
  let squares = 0;
  let expected = 0;
  for (const m of minutes) {
    squares += (m.events - m.exposure * p) ** 2;
    expected += m.exposure * p;
  }
  return expected <= 0 ? 1 : Math.min(20, Math.max(1, squares / expected));
}

interface Split {
  baseline: Tally;
  window: Tally;
  minutes: Map<number, Tally>;
}

function split(): Split {
  return { baseline: { events: 0, exposure: 0 }, window: { events: 0, exposure: 0 }, minutes: new Map() };
}

function addTo(s: Split, minuteS: number, windowFromS: number, events: number, exposure: number): void {
  const side = minuteS >= windowFromS ? s.window : s.baseline;
  side.events += events;
  side.exposure += exposure;
  if (minuteS < windowFromS) {
    const m = s.minutes.get(minuteS) ?? { events: 0, exposure: 0 };
    m.events += events;
    m.exposure += exposure;
    s.minutes.set(minuteS, m);
  }
}

/** Per service and operation: failures that start there. */
export function originErrorFindings(ops: readonly OpStat[], windowFromS: number): Finding[] {
  const byOp = new Map<string, Split & { service: string; operation: string }>();
  for (const op of ops) {
    const id = `${op.service}\u0000${op.operation}`;
    const s = byOp.get(id) ?? { ...split(), service: op.service, operation: op.operation };
    addTo(s, op.minuteS, windowFromS, op.originErrors, op.calls);
    byOp.set(id, s);
  }
  const findings: Finding[] = [];
  for (const s of byOp.values()) {
    const shift = rateShift(s.baseline, s.window, [...s.minutes.values()]);
    if (shift === null) continue;
    findings.push({
      kind: 'error_rate',
      summary: `failures start in ${s.service} ${s.operation}: ${shift.before}% → ${shift.after}% of its calls`,
      strength: shift.strength,
      service: s.service,
      operation: s.operation,
      caller: null,
      callee: null,
      fingerprint: null,
      template_id: null,
      before: shift.before,
      after: shift.after,
      unit: 'percent',
    });
  }
  return findings;
}

/**
 * Per call edge: calls that fail themselves (refused, reset, timed out), and calls the callee no
 * longer answers with a span of its own (it stopped: crashed, or its instrumentation did).
 */
export function callErrorFindings(calls: readonly CallStat[], windowFromS: number): Finding[] {
  const byEdge = new Map<string, { caller: string; callee: string; failed: Split; unanswered: Split; everServed: boolean }>();
  for (const c of calls) {
    const id = `${c.caller}\u0000${c.callee}`;
    const e = byEdge.get(id) ?? { caller: c.caller, callee: c.callee, failed: split(), unanswered: split(), everServed: false };
    addTo(e.failed, c.minuteS, windowFromS, c.originErrors, c.calls);
    addTo(e.unanswered, c.minuteS, windowFromS, c.calls - c.servedCalls, c.calls);
    if (c.servedCalls > 0 && c.minuteS < windowFromS) e.everServed = true;
    byEdge.set(id, e);
  }
  const findings: Finding[] = [];
  for (const e of byEdge.values()) {
    const failed = rateShift(e.failed.baseline, e.failed.window, [...e.failed.minutes.values()]);
    if (failed !== null) {
      findings.push({
        kind: 'error_rate',
        summary: `calls from ${e.caller} to ${e.callee} fail: ${failed.before}% → ${failed.after}%`,
        strength: failed.strength,
        service: e.callee,
        operation: null,
        caller: e.caller,
        callee: e.callee,
        fingerprint: null,
        template_id: null,
        before: failed.before,
        after: failed.after,
        unit: 'percent',
      });
    }
    if (!e.everServed) continue;
    const unanswered = rateShift(e.unanswered.baseline, e.unanswered.window, [...e.unanswered.minutes.values()]);
    if (unanswered === null) continue;
    findings.push({
      kind: 'traffic',
      summary: `${e.callee} stopped answering ${e.caller}: ${unanswered.after}% of its calls got no span from ${e.callee} (${unanswered.before}% before)`,
      strength: unanswered.strength,
      service: e.callee,
      operation: null,
      caller: e.caller,
      callee: e.callee,
      fingerprint: null,
      template_id: null,
      before: unanswered.before,
      after: unanswered.after,
      unit: 'percent',
    });
  }
  return findings;
}
