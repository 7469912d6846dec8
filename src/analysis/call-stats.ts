/**
 * Per-minute call statistics of one trace, the raw material of incident analysis: what each
 * service's own operations cost (self time, errors that start there) and what each call between
 * services cost on the caller's side (client time, the wire part of it, the callee's answer time).
 *
 * Two rules make the statistics point at the right service:
 * - A client span's own time (its duration minus the time covered by its children) is the wire:
 *   the network, the callee's ingress, its queue. It is counted on the call, never as the caller's
 *   own work, so a delay in front of a service is not read as its callers getting slower.
 * - An error "starts" in a failing span none of whose children fail: that is where the failure
 *   entered the trace. Callers that fail because a callee failed do not count it again.
 * A client span with no child in another service calls a peer that sends no spans (a database, a
 * crashed service): the peer is named from the span's attributes (peer.ts).
 * Pure: no I/O, no clock.
 */
import { at } from '../util/at.js';
import { peerOf } from './peer.js';
import type { SpanTree } from './tree.js';
import { NS_PER_MINUTE } from '../util/time-units.js';

/** One operation of a service in one minute (by span start). Not client spans: those are calls. */
export interface OpStat {
  /** Start of the minute, Unix seconds. */
  minuteS: number;
  service: string;
  operation: string;
  calls: number;
  errors: number;
  /** Failing spans with no failing child: the failure started here. */
  originErrors: number;
  /** Time not covered by children, summed over the successful calls (calls - errors). */
  selfNsSum: bigint;
  /** Durations of the successful calls, summed. */
  durationNsSum: bigint;
  /** The largest self time of one successful call: a minute's mean can leave out its one outlier (a pause). */
  selfNsMax: bigint;
}

/** Calls from a caller's client span to a callee in one minute (by client span start). */
export interface CallStat {
  minuteS: number;
  caller: string;
  /** The service of the client span's child, or the peer named by its attributes. */
  callee: string;
  /** The client span's name. */
  operation: string;
  /**
   * What the client span's attributes name as its peer ('' when nothing): the same as `callee`
   * when no span of the callee answered. Where a callee's spans answer, it tells which address
   * stands for which service, so calls that get no answer (a crash) can still be put on it.
   */
  peer: string;
  calls: number;
  errors: number;
  /** Failing client spans with no failing child: the call itself failed (refused, timed out, reset). */
  originErrors: number;
  /** Client time of the successful calls (calls - errors). */
  clientNsSum: bigint;
  /** Client time not covered by the callee's spans (network, ingress, queueing), of the successful calls. */
  wireNsSum: bigint;
  /** The largest wire time of one successful call. */
  wireNsMax: bigint;
  /** Calls answered by a span of the callee, and the callee's time on them. */
  servedCalls: number;
  serverNsSum: bigint;
}

export interface CallStats {
  ops: OpStat[];
  calls: CallStat[];
}

/** Start of the minute of `ns`, Unix seconds. */
export function minuteOfNs(ns: bigint): number {
  // One BigInt division for times after 1970 (every span of a day's traffic), where truncating is flooring.
  if (ns >= 0n) return Number(ns / NS_PER_MINUTE) * 60;
  return Number((ns - (((ns % NS_PER_MINUTE) + NS_PER_MINUTE) % NS_PER_MINUTE)) / 1_000_000_000n);
}

/** The statistics of one trace; `failing[i]` says whether `tree.spans[i]` is an error span. */
export function callStats(tree: SpanTree, failing: readonly boolean[]): CallStats {
  const { spans, parent } = tree;
  const count = spans.length;
  const realChildren: number[][] = Array.from({ length: count }, () => []);
  for (let i = 0; i < count; i++) {
    const p = at(parent, i);
    if (p !== -1) at(realChildren, p).push(i);
  }
  const ops = new Map<string, OpStat>();
  const calls = new Map<string, CallStat>();
  for (let i = 0; i < count; i++) {
    const span = at(spans, i);
    const children = at(realChildren, i);
    const durationNs = nonNegative(span.endNs - span.startNs);
    // A leaf span (most) is all self time: no array of its children made.
    const selfNs =
      children.length === 0
        ? durationNs
        : uncoveredNs(
            span.startNs,
            span.endNs,
            children.map((c) => at(spans, c)),
          );
    const isFailing = at(failing, i);
    const isOrigin = isFailing && !children.some((c) => at(failing, c));
    const minuteS = minuteOfNs(span.startNs);
    const served = span.kind === 'client' && children.length > 0 ? children.filter((c) => at(spans, c).serviceName !== span.serviceName) : NO_CHILDREN;
    const peer = span.kind === 'client' ? peerOf(span) : '';
    const callee = span.kind !== 'client' ? '' : served.length > 0 ? at(spans, at(served, 0)).serviceName : peer;
    if (callee === '' || callee === span.serviceName) {
      const key = `${minuteS}\u0000${span.serviceName}\u0000${span.name}`;
      let op = ops.get(key);
      if (op === undefined) {
        ops.set(
          key,
          (op = {
            minuteS,
            service: span.serviceName,
            operation: span.name,
            calls: 0,
            errors: 0,
            originErrors: 0,
            selfNsSum: 0n,
            durationNsSum: 0n,
            selfNsMax: 0n,
          }),
        );
      }
      op.calls += 1;
      if (isFailing) op.errors += 1;
      if (isOrigin) op.originErrors += 1;
      // Times of successful calls only: a failing call's time follows its error path (an early
      // return, a retry), and a callee's failures would otherwise move its callers' times.
      if (!isFailing) {
        op.selfNsSum += selfNs;
        op.durationNsSum += durationNs;
        if (selfNs > op.selfNsMax) op.selfNsMax = selfNs;
      }
      continue;
    }
    const key = `${minuteS}\u0000${span.serviceName}\u0000${callee}\u0000${span.name}\u0000${peer}`;
    let call = calls.get(key);
    if (call === undefined) {
      calls.set(
        key,
        (call = {
          minuteS,
          caller: span.serviceName,
          callee,
          operation: span.name,
          peer,
          calls: 0,
          errors: 0,
          originErrors: 0,
          clientNsSum: 0n,
          wireNsSum: 0n,
          wireNsMax: 0n,
          servedCalls: 0,
          serverNsSum: 0n,
        }),
      );
    }
    call.calls += 1;
    if (isFailing) call.errors += 1;
    if (isOrigin) call.originErrors += 1;
    if (!isFailing) {
      call.clientNsSum += durationNs;
      call.wireNsSum += selfNs;
      if (selfNs > call.wireNsMax) call.wireNsMax = selfNs;
    }
    if (served.length > 0) {
      call.servedCalls += 1;
      call.serverNsSum += nonNegative(durationNs - selfNs);
    }
  }
  return { ops: [...ops.values()], calls: [...calls.values()] };
}

const NO_CHILDREN: readonly number[] = [];

function nonNegative(ns: bigint): bigint {
  return ns < 0n ? 0n : ns;
}

/**
 * The part of [startNs, endNs) that no child covers. Children that run in parallel are counted
 * once (their union), and a child sticking out of its parent (clock skew) only where it overlaps.
 */
export function uncoveredNs(startNs: bigint, endNs: bigint, children: readonly { startNs: bigint; endNs: bigint }[]): bigint {
  const durationNs = nonNegative(endNs - startNs);
  if (children.length === 0) return durationNs;
  const intervals = children
    .map((c) => [c.startNs < startNs ? startNs : c.startNs, c.endNs > endNs ? endNs : c.endNs] as const)
    .filter(([s, e]) => e > s)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  let coveredNs = 0n;
  let runStart = -1n;
  let runEnd = -1n;
  for (const [s, e] of intervals) {
    if (runEnd < 0n || s > runEnd) {
      if (runEnd >= 0n) coveredNs += runEnd - runStart;
      runStart = s;
      runEnd = e;
    } else if (e > runEnd) {
      runEnd = e;
    }
  }
  if (runEnd >= 0n) coveredNs += runEnd - runStart;
  return nonNegative(durationNs - coveredNs);
}
