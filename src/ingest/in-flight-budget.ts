/**
 * The bound on export work in flight in ingest: how many exports are being read, decoded or
 * published at once, and how many bytes they hold (request bytes plus an estimate of their decoded
 * rows). Past the bound an export is refused at once, so the transport can answer "retry later"
 * instead of queuing without limit.
 *
 * One export larger than the whole byte budget (a legal 64 MiB message decodes to far more) is
 * never refused forever: it is taken when it can run alone. To get there under continuous load,
 * one such export may wait (holding only what it already reserved) while new exports are refused
 * until those in flight finish; only one waits at a time, so waiting cannot pile up.
 */

import type { AnswerRateLimit } from './answer-rate-limit.js';
import type { MemoryGate } from './memory-gate.js';

export interface InFlightLimits {
  maxInFlightRequests: number;
  maxInFlightBytes: number;
  /** How long the one waiting export may wait for the others to finish before it is refused. */
  maxWaitMs: number;
  /** Lowers the requests allowed in flight to what is answered within a target time (answer-rate-limit.ts). */
  answerRate?: { limit: AnswerRateLimit; nowMs: () => number };
  /** Refuses new exports while the process's memory is above its bound (memory-gate.ts). */
  memory?: Pick<MemoryGate, 'refuses'>;
}

/** Why an export was refused; the label of the refusal counter (docs/ingest.md lists each, held by the docs drift test). */
export const REFUSALS = ['in_flight_requests', 'in_flight_bytes', 'memory', 'stopping'] as const;
export type Refusal = (typeof REFUSALS)[number];

export interface InFlightLease {
  /** Bytes this export holds in the budget. */
  readonly bytes: number;
  /**
   * Changes the reservation to `bytes` (e.g. once the body is read or gunzipped): shrinking always
   * succeeds; growing resolves to null when granted, else to the refusal (the lease is kept; the
   * caller releases it).
   */
  resize(bytes: number): Promise<Refusal | null>;
  /** Gives the reservation back; later calls do nothing. */
  release(): void;
}

interface Waiter {
  /** Bytes the waiter holds already (0 for an export not yet admitted). */
  heldBytes: number;
  wantedBytes: number;
  /** Whether the waiter is already counted as a request in flight. */
  admitted: boolean;
  grant: () => void;
  refuse: (refusal: Refusal) => void;
  timer: NodeJS.Timeout;
}

export class InFlightBudget {
  private requests = 0;
  private bytes = 0;
  private waiter: Waiter | undefined;
  private closed = false;
  private idleWaiters: (() => void)[] = [];

  constructor(private readonly limits: InFlightLimits) {}

  /** Requests and bytes held now. */
  inFlight(): { requests: number; bytes: number } {
    return { requests: this.requests, bytes: this.bytes };
  }

  /** Admits one export reserving `bytes`, or says why not. Resolves at once unless it is the one waiter. */
  acquire(bytes: number): Promise<InFlightLease | Refusal> {
    const refusal = this.admissionRefusal(bytes);
    if (refusal === null) return Promise.resolve(this.grant(bytes));
    // Only an export that can never fit beside others may wait, and only one at a time.
    if (refusal !== 'in_flight_bytes' || bytes <= this.limits.maxInFlightBytes || this.waiter !== undefined) return Promise.resolve(refusal);
    return new Promise((resolve) => {
      this.wait({ heldBytes: 0, wantedBytes: bytes, admitted: false, grant: () => resolve(this.grant(bytes)), refuse: resolve });
    });
  }

  /** Refuses everything from now on (stop): the waiter, if any, at once. */
  close(): void {
    this.closed = true;
    this.refuseWaiter('stopping');
  }

  /** Resolves once no export is in flight. */
  whenIdle(): Promise<void> {
    if (this.requests === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private admissionRefusal(bytes: number): Refusal | null {
    if (this.closed) return 'stopping';
    const bound = this.boundRefusal(bytes);
    if (bound !== null) return bound;
    // Asked last: an export the gate lets through while memory is high is one actually admitted.
    return this.limits.memory?.refuses() === true ? 'memory' : null;
  }

  private boundRefusal(bytes: number): Refusal | null {
    if (this.requests === 0 && this.waiter === undefined) return null;
    if (this.requests >= this.requestLimit()) return 'in_flight_requests';
    return this.bytes + this.pendingGrowth() + bytes <= this.limits.maxInFlightBytes ? null : 'in_flight_bytes';
  }

  private requestLimit(): number {
    const answerRate = this.limits.answerRate;
    if (answerRate === undefined) return this.limits.maxInFlightRequests;
    return Math.min(this.limits.maxInFlightRequests, answerRate.limit.limit(answerRate.nowMs()));
  }

  /** What the waiter is about to take: counted as held, so that new exports make way for it. */
  private pendingGrowth(): number {
    return this.waiter === undefined ? 0 : this.waiter.wantedBytes - this.waiter.heldBytes;
  }

  private grant(bytes: number): InFlightLease {
    this.requests += 1;
    this.bytes += bytes;
    let held = bytes;
    let released = false;
    const lease: InFlightLease = {
      get bytes() {
        return held;
      },
      resize: async (wanted: number) => {
        if (released) return 'stopping';
        const refusal = this.growthRefusal(held, wanted);
        if (refusal === null) {
          this.bytes += wanted - held;
          held = wanted;
          this.wakeWaiter();
          return null;
        }
        if (refusal !== 'in_flight_bytes' || this.waiter !== undefined) return refusal;
        return new Promise<Refusal | null>((resolve) => {
          this.wait({
            heldBytes: held,
            wantedBytes: wanted,
            admitted: true,
            grant: () => {
              this.bytes += wanted - held;
              held = wanted;
              resolve(null);
            },
            refuse: resolve,
          });
        });
      },
      release: () => {
        if (released) return;
        released = true;
        this.limits.answerRate?.limit.answered(this.limits.answerRate.nowMs());
        this.requests -= 1;
        this.bytes -= held;
        this.wakeWaiter();
        if (this.requests === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
      },
    };
    return lease;
  }

  private growthRefusal(held: number, wanted: number): Refusal | null {
    if (wanted <= held) return null;
    if (this.closed) return 'stopping';
    const others = this.bytes - held;
    if (this.requests === 1 && this.waiter === undefined) return null;
    return others + this.pendingGrowth() + wanted <= this.limits.maxInFlightBytes ? null : 'in_flight_bytes';
  }

  private wait(waiter: Omit<Waiter, 'timer'>): void {
    const timer = setTimeout(() => this.refuseWaiter('in_flight_bytes'), this.limits.maxWaitMs);
    this.waiter = { ...waiter, timer };
  }

  /** Grants the waiter once it fits: alone, or beside what the others hold. */
  private wakeWaiter(): void {
    const waiter = this.waiter;
    if (waiter === undefined) return;
    const othersRequests = this.requests - (waiter.admitted ? 1 : 0);
    const othersBytes = this.bytes - waiter.heldBytes;
    if (othersRequests > 0 && othersBytes + waiter.wantedBytes > this.limits.maxInFlightBytes) return;
    if (!waiter.admitted && othersRequests >= this.limits.maxInFlightRequests) return;
    clearTimeout(waiter.timer);
    this.waiter = undefined;
    waiter.grant();
  }

  private refuseWaiter(refusal: Refusal): void {
    const waiter = this.waiter;
    if (waiter === undefined) return;
    clearTimeout(waiter.timer);
    this.waiter = undefined;
    waiter.refuse(refusal);
  }
}
