/**
 * Calls with their callee named as the callee's own spans name it. A call that got no answer is
 * named by its peer attributes; where the same peer value was seen answered by a service (in the
 * baseline or the window), the call is put on that service, so a service that stopped answering
 * is named even when its callers know it only by an address.
 */
import type { CallStat } from '../call-stats.js';

export function resolveCallees(calls: readonly CallStat[]): CallStat[] {
  const servedBy = new Map<string, Map<string, number>>();
  for (const c of calls) {
    if (c.servedCalls === 0 || c.peer === '' || c.peer === c.callee) continue;
    const counts = servedBy.get(c.peer) ?? new Map<string, number>();
    counts.set(c.callee, (counts.get(c.callee) ?? 0) + c.servedCalls);
    servedBy.set(c.peer, counts);
  }
  const serviceOfPeer = new Map<string, string>();
  for (const [peer, counts] of servedBy) {
    let best = '';
    let bestCalls = -1;
    for (const [service, n] of counts) if (n > bestCalls) [best, bestCalls] = [service, n];
    serviceOfPeer.set(peer, best);
  }
  return calls.map((c) => {
    if (c.servedCalls > 0 || c.peer === '') return c;
    const service = serviceOfPeer.get(c.peer);
    return service === undefined || service === c.callee ? c : { ...c, callee: service };
  });
}

/** Services that `service` calls, directly or not, and itself. */
export function downstreamOf(service: string, calls: readonly CallStat[]): Set<string> {
  const callees = new Map<string, Set<string>>();
  for (const c of calls) {
    const set = callees.get(c.caller) ?? new Set<string>();
    set.add(c.callee);
    callees.set(c.caller, set);
  }
  const seen = new Set<string>([service]);
  const queue = [service];
  while (queue.length > 0) {
    const next = queue.pop() as string;
    for (const callee of callees.get(next) ?? []) {
      if (seen.has(callee)) continue;
      seen.add(callee);
      queue.push(callee);
    }
  }
  return seen;
}
