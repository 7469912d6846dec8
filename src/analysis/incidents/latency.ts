/**
 * Latency evidence: a service's own time per call, and the wire time of calls into a callee.
 * Callers' waiting is never evidence against them: client spans are calls, not own work.
 */
import type { CallStat, OpStat } from '../call-stats.js';
import { roundMs, strengthOf, sumShift, type MinuteSum, type SumShift } from './stats.js';
import type { Finding } from './types.js';

/** Below this ratio a slowdown is too small to act on, however sure. */
const MIN_RATIO = 1.15;
/** Below this added time per call (ns) a change is invisible to a user. */
const MIN_ADDED_NS = 200_000;
/** Ratio at which the size of a slowdown stops adding to its strength. */
const FULL_RATIO = 1.5;

function sized(shift: SumShift): number {
  if (shift.ratio < MIN_RATIO) return 0;
  if (shift.afterPerCall - shift.beforePerCall < MIN_ADDED_NS) return 0;
  return strengthOf(shift.z) * Math.min(1, Math.log(shift.ratio) / Math.log(FULL_RATIO));
}

/** Words for the stretch a shift was seen in. */
function stretch(shift: SumShift): string {
  return shift.recentMinutes === null ? '' : ` in the last ${shift.recentMinutes} minutes`;
}

function times(ratio: number): string {
  return ratio >= 10 ? `${Math.round(ratio)}x` : `${ratio.toFixed(1)}x`;
}

/** Per service: its own time per call against the baseline, mix of operations adjusted. */
export function selfTimeFindings(ops: readonly OpStat[], windowFromS: number): Finding[] {
  const byService = new Map<string, MinuteSum[]>();
  for (const op of ops) {
    const list = byService.get(op.service) ?? [];
    list.push({ key: op.operation, minuteS: op.minuteS, calls: op.calls - op.errors, sum: Number(op.selfNsSum), max: Number(op.selfNsMax) });
    byService.set(op.service, list);
  }
  const findings: Finding[] = [];
  for (const [service, rows] of byService) {
    const shift = sumShift(rows, windowFromS);
    if (shift === null) continue;
    const strength = sized(shift);
    if (strength <= 0) continue;
    const worst = worstKey(rows, windowFromS);
    const before = roundMs(shift.beforePerCall);
    const after = roundMs(shift.afterPerCall);
    findings.push({
      kind: 'self_time',
      summary: `${service}'s own time per call is ${times(shift.ratio)} its usual (${before} ms → ${after} ms)${stretch(shift)}${worst === null ? '' : `, most on ${worst}`}`,
      strength,
      service,
      operation: worst,
      caller: null,
      callee: null,
      fingerprint: null,
      template_id: null,
      before,
      after,
      unit: 'ms',
    });
  }
  return findings;
}

/** The key whose window mean grew most over its baseline mean (by added time per call x calls). */
function worstKey(rows: readonly MinuteSum[], windowFromS: number): string | null {
  const totals = new Map<string, { bc: number; bs: number; wc: number; ws: number }>();
  for (const r of rows) {
    const t = totals.get(r.key) ?? { bc: 0, bs: 0, wc: 0, ws: 0 };
    if (r.minuteS >= windowFromS) {
      t.wc += r.calls;
      t.ws += r.sum;
    } else {
      t.bc += r.calls;
      t.bs += r.sum;
    }
    totals.set(r.key, t);
  }
  let best: string | null = null;
  let bestAdded = 0;
  for (const [key, t] of totals) {
    if (t.bc === 0 || t.wc === 0) continue;
    const added = t.ws - (t.wc * t.bs) / t.bc;
    if (added > bestAdded) [best, bestAdded] = [key, added];
  }
  return best;
}

/**
 * Per call edge (caller, callee): the wire time per call. For a callee that answers with its own
 * spans the evidence says its answer time stayed flat or not; for a peer without spans (a
 * database) the wire is the whole call.
 */
export function wireFindings(calls: readonly CallStat[], windowFromS: number): Finding[] {
  const byEdge = new Map<string, { caller: string; callee: string; wire: MinuteSum[]; server: MinuteSum[] }>();
  for (const c of calls) {
    const id = `${c.caller}\u0000${c.callee}`;
    const edge = byEdge.get(id) ?? { caller: c.caller, callee: c.callee, wire: [], server: [] };
    edge.wire.push({ key: c.operation, minuteS: c.minuteS, calls: c.calls - c.errors, sum: Number(c.wireNsSum), max: Number(c.wireNsMax) });
    if (c.servedCalls > 0) edge.server.push({ key: c.operation, minuteS: c.minuteS, calls: c.servedCalls, sum: Number(c.serverNsSum), max: 0 });
    byEdge.set(id, edge);
  }
  const findings: Finding[] = [];
  for (const edge of byEdge.values()) {
    const shift = sumShift(edge.wire, windowFromS);
    if (shift === null) continue;
    const strength = sized(shift);
    if (strength <= 0) continue;
    const server = edge.server.length > 0 ? sumShift(edge.server, windowFromS) : null;
    const before = roundMs(shift.beforePerCall);
    const after = roundMs(shift.afterPerCall);
    const added = roundMs(shift.afterPerCall - shift.beforePerCall);
    const summary =
      server === null
        ? `calls from ${edge.caller} to ${edge.callee} take ${times(shift.ratio)} as long (${before} ms → ${after} ms)${stretch(shift)}; ${edge.callee} sends no spans of its own`
        : `calls from ${edge.caller} to ${edge.callee} wait ${added} ms longer on the wire (${before} ms → ${after} ms)${stretch(shift)} while ${edge.callee}'s own answer time ${sized(server) === 0 ? 'is flat' : `grew ${times(server.ratio)}`} (${roundMs(server.beforePerCall)} ms → ${roundMs(server.afterPerCall)} ms): the network to ${edge.callee} or its ingress`;
    findings.push({
      kind: 'edge_latency',
      summary,
      strength,
      service: edge.callee,
      operation: null,
      caller: edge.caller,
      callee: edge.callee,
      fingerprint: null,
      template_id: null,
      before,
      after,
      unit: 'ms',
    });
  }
  return findings;
}
