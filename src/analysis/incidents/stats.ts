/** The statistics incident evidence shares: count surprise, shift of sums, strength. */

/** Below this surprise (about a z-score) a change is read as noise. */
export const NOISE_Z = 3;
/** Surprise at which evidence is about two thirds of the way to certain. */
const STRENGTH_SCALE_Z = 6;

/**
 * How surprising `observed` events are when `expected` were due, as a signed z-like score: the
 * square root of Poisson's log-likelihood ratio, divided by the overdispersion `dispersion`
 * (variance over mean of the baseline; 1 for a pure Poisson count). Positive means more than due.
 */
export function countSurprise(observed: number, expected: number, dispersion = 1): number {
  const e = Math.max(expected, 1e-9);
  const o = Math.max(observed, 0);
  const g = 2 * ((o > 0 ? o * Math.log(o / e) : 0) - (o - e));
  const z = Math.sqrt(Math.max(0, g) / Math.max(1, dispersion));
  return o >= e ? z : -z;
}

/** 0..1 from a surprise: 0 up to NOISE_Z, then rising towards 1. */
export function strengthOf(z: number): number {
  if (!(z > NOISE_Z)) return 0;
  return 1 - Math.exp(-(z - NOISE_Z) / STRENGTH_SCALE_Z);
}

/** Variance over mean of per-minute counts (at least 1): how much more a count wanders than Poisson. */
export function dispersionOf(counts: readonly number[]): number {
  if (counts.length < 5) return 1;
  const mean = counts.reduce((a, b) => a + b, 0) / counts.length;
  if (mean <= 0) return 1;
  const variance = counts.reduce((a, c) => a + (c - mean) ** 2, 0) / (counts.length - 1);
  return Math.min(20, Math.max(1, variance / mean));
}

/** Sums of a measure per key and minute, and how many calls carried it. */
export interface MinuteSum {
  key: string;
  minuteS: number;
  calls: number;
  sum: number;
}

export interface SumShift {
  /** Window sum over what the baseline's per-call means of each key would give for the window's calls. */
  ratio: number;
  /** Surprise of the ratio against the baseline minutes' own spread. */
  z: number;
  beforePerCall: number;
  afterPerCall: number;
  windowCalls: number;
}

/** Smallest spread assumed for a minute's log-ratio: synthetic or very steady series must not make tiny changes certain. */
const MIN_MINUTE_SIGMA = 0.08;
const MIN_BASELINE_CALLS = 10;
const MIN_WINDOW_CALLS = 5;

/**
 * How a per-call measure (self time, wire time) moved from the baseline to the window, adjusted
 * for the mix of keys (operations): the window's sum against what each key's baseline mean
 * predicts for the window's calls. The noise is the spread of the same ratio over the baseline's
 * minutes, so a measure that always wanders needs a bigger change. Null when either side is thin.
 */
export function sumShift(rows: readonly MinuteSum[], windowFromS: number): SumShift | null {
  const meanByKey = new Map<string, { calls: number; sum: number }>();
  let baseCalls = 0;
  let baseSum = 0;
  for (const r of rows) {
    if (r.minuteS >= windowFromS) continue;
    const m = meanByKey.get(r.key) ?? { calls: 0, sum: 0 };
    m.calls += r.calls;
    m.sum += r.sum;
    meanByKey.set(r.key, m);
    baseCalls += r.calls;
    baseSum += r.sum;
  }
  if (baseCalls < MIN_BASELINE_CALLS || baseSum <= 0) return null;
  const perMinute = new Map<number, { observed: number; expected: number; calls: number }>();
  let windowCalls = 0;
  let windowSum = 0;
  for (const r of rows) {
    const m = meanByKey.get(r.key);
    if (m === undefined || m.calls < 3) continue;
    const minute = perMinute.get(r.minuteS) ?? { observed: 0, expected: 0, calls: 0 };
    minute.observed += r.sum;
    minute.expected += (r.calls * m.sum) / m.calls;
    minute.calls += r.calls;
    perMinute.set(r.minuteS, minute);
    if (r.minuteS >= windowFromS) {
      windowCalls += r.calls;
      windowSum += r.sum;
    }
  }
  let windowExpected = 0;
  let windowObserved = 0;
  let windowMinutes = 0;
  const baseLogs: number[] = [];
  for (const [minuteS, m] of perMinute) {
    if (m.expected <= 0) continue;
    if (minuteS >= windowFromS) {
      windowExpected += m.expected;
      windowObserved += m.observed;
      windowMinutes++;
    } else {
      baseLogs.push(Math.log(Math.max(m.observed, m.expected * 0.01) / m.expected));
    }
  }
  if (windowCalls < MIN_WINDOW_CALLS || windowExpected <= 0 || windowMinutes === 0) return null;
  const ratio = Math.max(windowObserved, 1e-9) / windowExpected;
  const sigma = Math.max(MIN_MINUTE_SIGMA, spread(baseLogs));
  const z = Math.log(ratio) / (sigma / Math.sqrt(windowMinutes));
  return { ratio, z, beforePerCall: baseSum / baseCalls, afterPerCall: windowCalls > 0 ? windowSum / windowCalls : 0, windowCalls };
}

/** Sample standard deviation (0 for fewer than 3 values, where the floor applies). */
function spread(values: readonly number[]): number {
  if (values.length < 3) return 0;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1));
}

/** Milliseconds from nanoseconds, to one decimal under 100 ms and whole above. */
export function roundMs(ns: number): number {
  const ms = ns / 1e6;
  return ms >= 100 ? Math.round(ms) : Math.round(ms * 10) / 10;
}

/** A share as a percentage with at most one decimal. */
export function percent(part: number, whole: number): number {
  if (whole <= 0) return 0;
  return Math.round((1000 * part) / whole) / 10;
}

/** A per-minute rate with at most one decimal. */
export function perMinute(count: number, minutes: number): number {
  if (minutes <= 0) return 0;
  return Math.round((10 * count) / minutes) / 10;
}
