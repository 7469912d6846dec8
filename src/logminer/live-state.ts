/**
 * What the logminer knows in memory between flushes and detection ticks: every template with
 * exact nanosecond times, recent hits per template per minute, the minutes each service logged
 * in (coverage), each service's log clock, and which services this replica owns.
 *
 * Bounds: templates are bounded by the miner's per-service limit; minute counts and coverage are
 * kept only for the minutes detection reads (`keepMinutes` before the wall clock, and a little
 * after it for clocks running ahead); older minutes live in storage only.
 */
import type { TemplateState } from '../mining/alert-types.js';

export interface LiveTemplate {
  templateId: string;
  service: string;
  template: string;
  count: number;
  firstSeenNs: bigint;
  lastSeenNs: bigint;
  maxSeverity: number;
  sample: string;
  signature: string;
  overflow: boolean;
  createdSeq: bigint;
}

/** Minutes past the wall clock still counted in memory (hosts whose clocks run ahead). */
const FUTURE_MINUTES = 10;

export class LiveState {
  readonly templates = new Map<string, LiveTemplate>();
  /** Newest log time per service (the service's log clock). */
  readonly serviceClockNs = new Map<string, bigint>();
  private readonly minuteCounts = new Map<string, Map<number, number>>();
  private readonly coverage = new Map<string, Set<number>>();
  /** Wall clock of the last log mined per service: ownership. */
  private readonly lastMinedMs = new Map<string, number>();
  /** Newest mined log time over all services (data lag), null before the first. */
  newestLogNs: bigint | null = null;

  constructor(
    private readonly keepMinutes: number,
    private readonly ownershipWindowMs: number,
  ) {}

  /** Whether `minute` is inside the range kept in memory at `wallMs`. */
  private kept(minute: number, wallMs: number): boolean {
    const wallMinute = Math.floor(wallMs / 60_000);
    return minute >= wallMinute - this.keepMinutes && minute <= wallMinute + FUTURE_MINUTES;
  }

  /** Records `hits` lines of a template in a minute (ignored outside the kept range). */
  addMinuteHits(templateId: string, service: string, minute: number, hits: number, wallMs: number): void {
    if (!this.kept(minute, wallMs)) return;
    let counts = this.minuteCounts.get(templateId);
    if (counts === undefined) this.minuteCounts.set(templateId, (counts = new Map()));
    counts.set(minute, (counts.get(minute) ?? 0) + hits);
    let covered = this.coverage.get(service);
    if (covered === undefined) this.coverage.set(service, (covered = new Set()));
    covered.add(minute);
  }

  /** Moves the service's log clock (and the overall newest log time) forward. */
  advanceClock(service: string, tsNs: bigint): void {
    const clock = this.serviceClockNs.get(service);
    if (clock === undefined || tsNs > clock) this.serviceClockNs.set(service, tsNs);
    if (this.newestLogNs === null || tsNs > this.newestLogNs) this.newestLogNs = tsNs;
  }

  /** This replica mined a log of `service` at wall time `wallMs`: it owns the service for the ownership window. */
  markMined(service: string, wallMs: number): void {
    this.lastMinedMs.set(service, wallMs);
  }

  /** Services owned at `wallMs` (mined within the ownership window). */
  ownedServices(wallMs: number): Set<string> {
    const owned = new Set<string>();
    for (const [service, minedMs] of this.lastMinedMs) if (wallMs - minedMs < this.ownershipWindowMs) owned.add(service);
    return owned;
  }

  /** Drops minutes that left the kept range and services no longer owned. */
  prune(wallMs: number): void {
    for (const [id, counts] of this.minuteCounts) {
      for (const minute of counts.keys()) if (!this.kept(minute, wallMs)) counts.delete(minute);
      if (counts.size === 0) this.minuteCounts.delete(id);
    }
    for (const [service, covered] of this.coverage) {
      for (const minute of covered) if (!this.kept(minute, wallMs)) covered.delete(minute);
      if (covered.size === 0) this.coverage.delete(service);
    }
    for (const [service, minedMs] of this.lastMinedMs) if (wallMs - minedMs >= this.ownershipWindowMs) this.lastMinedMs.delete(service);
  }

  /** The detector's view of the templates of `services`. */
  templateStates(services: ReadonlySet<string>): TemplateState[] {
    const out: TemplateState[] = [];
    for (const t of this.templates.values()) {
      if (!services.has(t.service)) continue;
      out.push({
        templateId: t.templateId,
        service: t.service,
        template: t.template,
        firstSeenNs: t.firstSeenNs,
        lastSeenNs: t.lastSeenNs,
        minuteCounts: this.minuteCounts.get(t.templateId) ?? EMPTY_COUNTS,
        totalCount: t.count,
      });
    }
    return out;
  }

  /** Covered minutes of `services` kept in memory. */
  coverageOf(services: ReadonlySet<string>): Map<string, Set<number>> {
    const out = new Map<string, Set<number>>();
    for (const service of services) {
      const covered = this.coverage.get(service);
      if (covered !== undefined) out.set(service, new Set(covered));
    }
    return out;
  }
}

const EMPTY_COUNTS: ReadonlyMap<number, number> = new Map();
