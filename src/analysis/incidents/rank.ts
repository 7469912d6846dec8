/**
 * Ranks suspects: every finding names a service; a service's findings combine so that several
 * independent kinds of change point more surely than one, and many findings of one kind do not
 * outweigh a different kind (a single event often changes several log lines at once).
 */
import { downstreamOf, resolveCallees } from './callees.js';
import { callErrorFindings, originErrorFindings } from './errors.js';
import { selfTimeFindings, wireFindings } from './latency.js';
import { templateFindings } from './logs.js';
import { readGroups } from './stories.js';
import type { Evidence, EvidenceKind, Finding, IncidentInputs, IncidentReport, Suspect } from './types.js';

/** Log lines are weighed a little below the other kinds: the noisiest evidence of all. */
const KIND_WEIGHT: Record<EvidenceKind, number> = { story_group: 1, self_time: 1, edge_latency: 1, error_rate: 1, traffic: 1, log_template: 0.8 };
/**
 * A caller's log lines, while it calls a suspect with news other than log lines at least half as
 * strong, most likely report that suspect's trouble: they count this much.
 */
const ECHO_WEIGHT = 0.5;
/** A caller's own slowdown must be at least this share of a call's to take the call's evidence. */
const REATTRIBUTE_SHARE = 0.5;
const MAX_SUSPECTS = 10;
const MIN_SCORE = 5;
const MAX_EVIDENCE = 6;

interface Scored {
  service: string;
  findings: Finding[];
  raw: number;
  echoed: boolean;
}

export function analyzeIncident(inputs: IncidentInputs): IncidentReport {
  const { windowFromS, windowToS, baselineFromS } = inputs;
  const windowMinutes = Math.max(0, (windowToS - windowFromS) / 60);
  const baselineMinutes = coveredMinutes(inputs, baselineFromS, windowFromS) || Math.max(0, (windowFromS - baselineFromS) / 60);
  const ops = inputs.ops.filter((o) => o.minuteS >= baselineFromS && o.minuteS < windowToS);
  const calls = resolveCallees(inputs.calls.filter((c) => c.minuteS >= baselineFromS && c.minuteS < windowToS));
  const groupReading = readGroups(inputs.groups, calls, windowMinutes, baselineMinutes, windowFromS);
  let findings: Finding[] = [
    ...selfTimeFindings(ops, windowFromS),
    ...wireFindings(calls, windowFromS),
    ...originErrorFindings(ops, windowFromS),
    ...callErrorFindings(calls, windowFromS),
    ...groupReading.findings,
    ...templateFindings(inputs.templates, ops, windowFromS, windowMinutes, baselineMinutes),
  ];
  if (inputs.service !== undefined) {
    const scope = downstreamOf(inputs.service, calls);
    findings = findings.filter((f) => scope.has(f.service));
  }
  const suspects = rank(reattributeOutgoingDelays(findings), calls, windowFromS);
  const top = suspects[0];
  const summary =
    top === undefined
      ? 'Nothing changed beyond the usual in this window.'
      : `Likeliest cause: ${top.service}${top.operation === null ? '' : ` (${top.operation})`}. ${capitalize(top.evidence[0]?.summary ?? '')}.`;
  return { summary, suspects, groups: groupReading.groups };
}

/**
 * A caller that is itself slow (its own time grew) or slow to reach (the wire into it grew) makes
 * every call it sends slower too: a CPU-starved process spends longer in its database client, and a
 * delay on its network delays its requests out as well as in. Wire time grown on its calls out is
 * then put on the caller, not on each service or database it calls.
 */
function reattributeOutgoingDelays(findings: readonly Finding[]): Finding[] {
  const slowAtItself = new Map<string, number>();
  for (const f of findings) {
    if (f.kind === 'self_time' || (f.kind === 'edge_latency' && f.callee === f.service)) {
      slowAtItself.set(f.service, Math.max(slowAtItself.get(f.service) ?? 0, f.strength));
    }
  }
  return findings.map((f) => {
    if (f.kind !== 'edge_latency' || f.caller === null) return f;
    const atCaller = slowAtItself.get(f.caller) ?? 0;
    if (atCaller === 0 || atCaller < f.strength * REATTRIBUTE_SHARE) return f;
    return { ...f, service: f.caller, summary: `${f.summary}, as every call ${f.caller} makes while it is slow itself` };
  });
}

function rank(findings: readonly Finding[], calls: IncidentInputs['calls'], windowFromS: number): Suspect[] {
  const byService = new Map<string, Finding[]>();
  for (const f of findings) {
    const list = byService.get(f.service) ?? [];
    list.push(f);
    byService.set(f.service, list);
  }
  const scored: Scored[] = [...byService].map(([service, list]) => ({ service, findings: list, raw: combine(list, false), echoed: false }));
  const rawOf = new Map(scored.map((s) => [s.service, s] as const));
  const calleesOf = new Map<string, Set<string>>();
  for (const c of calls) {
    if (c.minuteS < windowFromS) continue;
    const set = calleesOf.get(c.caller) ?? new Set<string>();
    set.add(c.callee);
    calleesOf.set(c.caller, set);
  }
  for (const s of scored) {
    if (!s.findings.some((f) => isEchoKind(f.kind))) continue;
    const louder = [...(calleesOf.get(s.service) ?? [])].some((callee) => {
      const other = rawOf.get(callee);
      return other !== undefined && other.service !== s.service && other.raw >= s.raw * ECHO_WEIGHT && other.findings.some((f) => f.kind !== 'log_template');
    });
    if (louder) {
      s.echoed = true;
      s.raw = combine(s.findings, true);
    }
  }
  return scored
    .filter((s) => 100 * s.raw >= MIN_SCORE)
    .sort((a, b) => b.raw - a.raw || (a.service < b.service ? -1 : 1))
    .slice(0, MAX_SUSPECTS)
    .map((s, i) => suspectOf(s, i + 1));
}

/**
 * Log lines are what a caller shows when a callee is in trouble ("call to X failed"). Its failures
 * and stories are not: a failure passed up from a callee already counts in the callee, where it starts.
 */
function isEchoKind(kind: EvidenceKind): boolean {
  return kind === 'log_template';
}

function weightOf(f: Finding, echoed: boolean): number {
  return kindWeight(f.kind, echoed);
}

function kindWeight(kind: EvidenceKind, echoed: boolean): number {
  return KIND_WEIGHT[kind] * (echoed && isEchoKind(kind) ? ECHO_WEIGHT : 1);
}

/** 0..1: one minus the chance that every kind's change is noise, kinds independent. */
function combine(findings: readonly Finding[], echoed: boolean): number {
  const byKind = new Map<EvidenceKind, number>();
  for (const f of findings) byKind.set(f.kind, 1 - (1 - (byKind.get(f.kind) ?? 0)) * (1 - f.strength));
  let quiet = 1;
  for (const [kind, strength] of byKind) quiet *= 1 - kindWeight(kind, echoed) * strength;
  return 1 - quiet;
}

function suspectOf(s: Scored, rank: number): Suspect {
  const sorted = byKindFirst([...s.findings].sort((a, b) => weightOf(b, s.echoed) * b.strength - weightOf(a, s.echoed) * a.strength));
  const evidence: Evidence[] = sorted
    .slice(0, MAX_EVIDENCE)
    .map(({ strength, ...rest }) => ({ ...rest, score: round1(100 * weightOf(rest as Finding, s.echoed) * strength) }));
  const withOperation = sorted.find((f) => f.operation !== null);
  const onEdge = sorted.find((f) => f.caller !== null && f.callee !== null);
  const top = evidence[0];
  return {
    rank,
    service: s.service,
    operation: withOperation?.operation ?? null,
    edge:
      onEdge !== undefined && onEdge === sorted[0] && onEdge.caller !== null && onEdge.callee !== null
        ? { caller: onEdge.caller, callee: onEdge.callee }
        : null,
    score: round1(100 * s.raw),
    summary: top === undefined ? s.service : `${s.service}: ${top.summary}`,
    evidence,
  };
}

/**
 * The strongest finding of each kind first, then the rest, each part strongest first: five story
 * groups split by a message's wording must not push the failing share or the log lines out of sight.
 */
function byKindFirst(sorted: readonly Finding[]): Finding[] {
  const seen = new Set<EvidenceKind>();
  const firsts: Finding[] = [];
  const rest: Finding[] = [];
  for (const f of sorted) {
    if (seen.has(f.kind)) rest.push(f);
    else {
      seen.add(f.kind);
      firsts.push(f);
    }
  }
  return [...firsts, ...rest];
}

function coveredMinutes(inputs: IncidentInputs, fromS: number, toS: number): number {
  const minutes = new Set<number>();
  for (const o of inputs.ops) if (o.minuteS >= fromS && o.minuteS < toS) minutes.add(o.minuteS);
  for (const c of inputs.calls) if (c.minuteS >= fromS && c.minuteS < toS) minutes.add(c.minuteS);
  return minutes.size;
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
