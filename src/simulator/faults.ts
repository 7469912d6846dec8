/**
 * Faults the simulator injects, and the ground truth a ranking is judged against. A fault affects
 * only traces that start in [fromMs, toMs).
 */
import type { AppModel } from './model.js';

export const FAULT_KINDS = ['return_value', 'exception', 'cpu', 'network_delay', 'crash', 'slow_db'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

export interface Fault {
  kind: FaultKind;
  /** The faulty service; for `slow_db` the database or cache peer (`orders-db`). */
  service: string;
  fromMs: number;
  toMs: number;
  /**
   * How strong, per kind (defaults in DEFAULT_INTENSITY):
   * return_value, exception: share of the target's executions affected (0..1);
   * cpu: factor on the target's self times (1.3..3); network_delay: added wire time in ms (50..800);
   * slow_db: factor on the peer's call times (3..10); crash: unused.
   */
  intensity?: number;
  /** return_value and exception: only this operation of the target (its span name); default every operation. */
  operation?: string;
}

export const DEFAULT_INTENSITY: Record<FaultKind, number> = {
  return_value: 0.6,
  exception: 0.7,
  cpu: 2,
  network_delay: 300,
  crash: 1,
  slow_db: 5,
};

/** Words for a fault in a sentence: `cpu contention on pricing`. */
export const FAULT_LABEL: Record<FaultKind, string> = {
  return_value: 'invalid return values from',
  exception: 'caught exceptions in',
  cpu: 'cpu contention on',
  network_delay: 'network delay to',
  crash: 'crash of',
  slow_db: 'slow database',
};

export function describeFault(fault: Fault): string {
  return `${FAULT_LABEL[fault.kind]} ${fault.service}`;
}

/** The service a perfect ranking names first: the target, or for slow_db the peer as callers name it (`peer.service`). */
export function expectedSuspect(fault: Fault): string {
  return fault.service;
}

/** Services that some other service calls (the gateway is called by nobody). */
function calledServices(model: AppModel): string[] {
  const called = new Set<string>();
  const visit = (stages: AppModel['gatewayStages']) => {
    for (const stage of stages) for (const step of Array.isArray(stage) ? stage : [stage]) if (step.type === 'call') called.add(step.service);
  };
  visit(model.gatewayStages);
  for (const type of model.requestTypes) called.add(type.entry.service);
  for (const service of model.services) for (const operation of service.operations) visit(operation.stages);
  return model.services.map((service) => service.name).filter((name) => called.has(name));
}

/**
 * Valid targets of a kind: every kind but slow_db targets a service that has callers (a crash or a
 * network delay shows only through them); slow_db targets the databases and caches.
 */
export function faultTargets(kind: FaultKind, model: AppModel): string[] {
  if (kind === 'slow_db') return model.peers.filter((peer) => peer.system !== 'http').map((peer) => peer.name);
  return calledServices(model);
}

/** A clear error for a fault the model cannot inject. */
export function checkFault(fault: Fault, model: AppModel): void {
  if (!FAULT_KINDS.includes(fault.kind)) throw new Error(`unknown fault kind ${JSON.stringify(fault.kind)}; expected one of ${FAULT_KINDS.join(', ')}`);
  const targets = faultTargets(fault.kind, model);
  if (!targets.includes(fault.service)) throw new Error(`${fault.kind} cannot target ${JSON.stringify(fault.service)}; valid targets: ${targets.join(', ')}`);
  if (!(fault.toMs > fault.fromMs)) throw new Error(`fault on ${fault.service}: toMs must be after fromMs`);
  if (fault.operation !== undefined) {
    const service = model.services.find((candidate) => candidate.name === fault.service);
    if (!service?.operations.some((operation) => operation.name === fault.operation))
      throw new Error(`${fault.service} has no operation ${JSON.stringify(fault.operation)}`);
  }
}
