/**
 * Baseline carry: "an endpoint's baseline is carried for at most 2 windows (120 minutes), then a
 * lasting slowdown becomes normal and stops being flagged; carry state is in memory only".
 *
 * Why: baselines are rebuilt every refresh from the last window. Once an endpoint slows down, its
 * slow traces are not errors, so they enter the window and lift its p99 until the slowdown no longer
 * looks slow. Carrying the last good baseline keeps flagging it, but only for a bounded time.
 *
 * Interpretation, per endpoint, at each `update(fresh)` (time from the injected clock):
 * - The *adopted* baseline is the last fresh baseline that was trusted and accepted.
 * - A fresh baseline is accepted when it is trusted and not polluted. Polluted means its p99 would
 *   itself be a slow trace against the adopted baseline: p99_fresh > max(p99_adopted x
 *   slow_trace_factor, p99_adopted + slow_trace_margin_ms). Accepting ends any carry.
 * - Otherwise (polluted, untrusted, or absent because the endpoint went quiet) the adopted baseline
 *   is *carried*: it stays the effective baseline. The carry starts at the first such update.
 * - A carry lasts while now - carry start < carryWindows x window (2 x 60 = 120 minutes). At the
 *   first update at or after that limit the carry expires: the fresh baseline becomes the adopted
 *   one even if polluted (the slowdown is now normal), or, when there is no trusted fresh baseline,
 *   the endpoint's state is dropped and the fresh (untrusted or absent) baseline is used as is.
 * - An endpoint that never had a trusted baseline has nothing to carry: fresh is used as is.
 */
import type { ThresholdSettings } from '../config/settings.js';
import type { EndpointBaseline } from './baseline.js';
import { slowTraceLimitNs } from './thresholds.js';
import { MINUTE_MS } from '../util/time-units.js';

export const DEFAULT_CARRY_WINDOWS = 2;

export interface BaselineCarryOptions {
  /** The baseline window (assembler.baseline_window_minutes). */
  windowMinutes: number;
  thresholds: ThresholdSettings;
  /** Milliseconds; injected so that tests can move time. */
  clockMs: () => number;
  carryWindows?: number;
}

interface EndpointState {
  adopted: EndpointBaseline;
  /** When the current carry started; null while the adopted baseline is the fresh one. */
  carrySinceMs: number | null;
}

/** Holds the adopted baselines and carry timers of all endpoints (in memory only). */
export class BaselineCarry {
  private readonly states = new Map<string, EndpointState>();
  private effective = new Map<string, EndpointBaseline>();
  private readonly carryLimitMs: number;

  constructor(private readonly options: BaselineCarryOptions) {
    this.carryLimitMs = (options.carryWindows ?? DEFAULT_CARRY_WINDOWS) * options.windowMinutes * MINUTE_MS;
  }

  /** Takes a reload's fresh baselines; returns the baselines analysis should use from now on. */
  update(fresh: ReadonlyMap<string, EndpointBaseline>): Map<string, EndpointBaseline> {
    const nowMs = this.options.clockMs();
    const next = new Map<string, EndpointBaseline>();
    const keys = new Set<string>([...fresh.keys(), ...this.states.keys()]);
    for (const key of keys) {
      const chosen = this.decide(key, fresh.get(key), nowMs);
      if (chosen !== undefined) next.set(key, chosen);
    }
    this.effective = next;
    return next;
  }

  /** The effective baseline of an endpoint, or null. */
  get(key: string): EndpointBaseline | null {
    return this.effective.get(key) ?? null;
  }

  /** When the endpoint's current carry started, or null when it is not carried. */
  carriedSinceMs(key: string): number | null {
    return this.states.get(key)?.carrySinceMs ?? null;
  }

  private decide(key: string, fresh: EndpointBaseline | undefined, nowMs: number): EndpointBaseline | undefined {
    const state = this.states.get(key);
    const freshTrusted = fresh !== undefined && fresh.trusted;
    if (state === undefined) {
      if (freshTrusted) this.states.set(key, { adopted: fresh, carrySinceMs: null });
      return fresh;
    }
    if (freshTrusted && !this.polluted(fresh, state.adopted)) {
      this.states.set(key, { adopted: fresh, carrySinceMs: null });
      return fresh;
    }
    if (state.carrySinceMs === null) state.carrySinceMs = nowMs;
    if (nowMs - state.carrySinceMs < this.carryLimitMs) return state.adopted;
    // Carried long enough: what the window shows now is the endpoint's normal.
    if (freshTrusted) this.states.set(key, { adopted: fresh, carrySinceMs: null });
    else this.states.delete(key);
    return fresh;
  }

  private polluted(fresh: EndpointBaseline, adopted: EndpointBaseline): boolean {
    return fresh.p99_ns > slowTraceLimitNs(adopted.p99_ns, this.options.thresholds);
  }
}
