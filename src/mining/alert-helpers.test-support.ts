/** Builders shared by the alert tests. */
import type { AlertSettings, TemplateState } from './alert-types.js';
import { NS_PER_MINUTE } from './alert-types.js';

/** Unix minute used as "now" in the tests (a round minute, far from 0). */
export const T0_MIN = 29_000_000;

export function nsAtMinute(minute: number): bigint {
  return BigInt(minute) * NS_PER_MINUTE;
}

export const SETTINGS: AlertSettings = {
  spike_window_min: 5,
  baseline_window_min: 60,
  spike_factor: 5,
  spike_min_count: 10,
  baseline_mode: 'flat',
  new_template_warmup_min: 15,
};

export function template(id: string, firstSeenMin: number, counts: Record<number, number> = {}, service = 'svc', lastSeenMin = firstSeenMin): TemplateState {
  const minuteCounts = new Map<number, number>(Object.entries(counts).map(([m, c]) => [Number(m), c]));
  let total = 0;
  for (const c of minuteCounts.values()) total += c;
  return {
    templateId: id,
    service,
    template: `tpl ${id}`,
    firstSeenNs: nsAtMinute(firstSeenMin),
    lastSeenNs: nsAtMinute(lastSeenMin),
    minuteCounts,
    totalCount: total,
  };
}

/** Every minute in [from, to) covered. */
export function coveredRange(from: number, to: number): Set<number> {
  const s = new Set<number>();
  for (let m = from; m < to; m++) s.add(m);
  return s;
}
