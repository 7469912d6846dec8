/**
 * Service-map `baseline_p99_ns`: each service's p99 over the 24 h up to the earlier of the window
 * end and now, floored to the minute, computed once per minute (so up to 60 s stale) and shared.
 */

import type { QueryOptions } from '../model/store.js';
import { DAY_MS, MINUTE_MS } from '../util/time-units.js';

/** Distinct minutes kept: the live minute plus a few windows that end in the past. */
const MAX_ENTRIES = 8;

/** Loads service -> p99 ns over [fromMs, toMs). */
export type BaselineLoader = (range: { fromMs: number; toMs: number }, options: QueryOptions) => Promise<Map<string, number>>;

export interface BaselineP99Cache {
  /** The baselines for a window ending at `endMs`, judged at `nowMs`. */
  get(endMs: number, nowMs: number, timeoutSecs: number): Promise<Map<string, number>>;
}

export function createBaselineP99Cache(load: BaselineLoader): BaselineP99Cache {
  const entries = new Map<number, Promise<Map<string, number>>>();
  return {
    get(endMs, nowMs, timeoutSecs) {
      const minuteMs = Math.floor(Math.min(endMs, nowMs) / MINUTE_MS) * MINUTE_MS;
      const cached = entries.get(minuteMs);
      if (cached !== undefined) return cached;
      // No request signal: the result is shared, so one client going away must not fail the others.
      const loading = load({ fromMs: minuteMs - DAY_MS, toMs: minuteMs }, { timeoutSecs });
      entries.set(minuteMs, loading);
      loading.catch(() => entries.delete(minuteMs));
      while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as number);
      return loading;
    },
  };
}
