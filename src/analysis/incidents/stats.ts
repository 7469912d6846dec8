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

/** Sums of a measure per key and minute, how many calls carried it, and its largest single value. */
export interface MinuteSum {
  key: string;
  minuteS: number;
  calls: number;
  sum: number;
  /** 0 when unknown: nothing is left out. */
  max: number;
}

/**
 * A minute's calls and sum without its single largest call: one pause of a few hundred
 * milliseconds would otherwise move a quiet operation's whole minute.
 */
function trimmed(r: MinuteSum): { calls: number; sum: number } {
  if (r.max <= 0 || r.calls < 2) return { calls: r.calls, sum: r.sum };
  return { calls: r.calls - 1, sum: Math.max(0, r.sum - r.max) };
}

export interface SumShift {
  /** How many times the baseline's per-call measure a typical window minute shows, mix of keys adjusted. */
  ratio: number;
  /** Surprise of the ratio against the baseline minutes' own spread. */
  z: number;
  beforePerCall: number;
  /** The baseline's per-call mean times the ratio: what a call typically took in the window. */
  afterPerCall: number;
  windowCalls: number;
  /** Set when the change holds in the window's last minutes only: how many. */
  recentMinutes: number | null;
}

/**
 * The stretches compared: the whole window (0), and its last minutes, where a change that began
 * inside the window shows (an incident is usually still going on at the window's end). Shorter
 * than 5 minutes, a rank-sum test against 60 baseline minutes cannot reach its gate.
 */
const RECENT_MINUTES = [0, 10, 5] as const;
/** Trying several stretches is several chances for noise to look like a change: each shorter one pays this. */
const RECENT_PENALTY_Z = 0.5;

/** Smallest spread assumed for a minute's log-ratio: synthetic or very steady series must not make tiny changes certain. */
const MIN_MINUTE_SIGMA = 0.08;
const MIN_BASELINE_CALLS = 10;
const MIN_WINDOW_CALLS = 5;
const MIN_BASELINE_MINUTES = 5;
/** MAD to standard deviation for normal data, and the median's standard error over the mean's. */
const MAD_TO_SIGMA = 1.4826;
const MEDIAN_EFFICIENCY = 1.2533;

/**
 * How a per-call measure (self time, wire time) moved from the baseline to the window, adjusted
 * for the mix of keys (operations): each minute's sum against what each key's baseline mean
 * predicts for that minute's calls, as a log-ratio. The median minute of the window (or of its
 * last minutes, RECENT_MINUTES) is compared with the baseline's median minute, against the baseline
 * minutes' spread: a pause of a few hundred milliseconds in one or two minutes (garbage
 * collection) moves a mean but not a median, while a service slowed on every call moves every
 * minute. The stretch that differs most is kept. Null when either side is thin.
 */
export function sumShift(rows: readonly MinuteSum[], windowFromS: number): SumShift | null {
  const meanByKey = new Map<string, { calls: number; sum: number }>();
  let baseCalls = 0;
  let baseSum = 0;
  for (const r of rows) {
    if (r.minuteS >= windowFromS) continue;
    const t = trimmed(r);
    const m = meanByKey.get(r.key) ?? { calls: 0, sum: 0 };
    m.calls += t.calls;
    m.sum += t.sum;
    meanByKey.set(r.key, m);
    baseCalls += t.calls;
    baseSum += t.sum;
  }
  if (baseCalls < MIN_BASELINE_CALLS || baseSum <= 0) return null;
  const perMinute = new Map<number, { observed: number; expected: number }>();
  let windowCalls = 0;
  for (const r of rows) {
    const m = meanByKey.get(r.key);
    const t = trimmed(r);
    if (m === undefined || m.calls < 3 || t.calls <= 0) continue;
    const minute = perMinute.get(r.minuteS) ?? { observed: 0, expected: 0 };
    minute.observed += t.sum;
    minute.expected += (t.calls * m.sum) / m.calls;
    perMinute.set(r.minuteS, minute);
    if (r.minuteS >= windowFromS) windowCalls += r.calls;
  }
  const baseMinutes: [number, number][] = [];
  const windowMinutes: [number, number][] = [];
  for (const [minuteS, m] of perMinute) {
    if (m.expected <= 0) continue;
    const logRatio = Math.log(Math.max(m.observed, m.expected * 0.01) / m.expected);
    (minuteS >= windowFromS ? windowMinutes : baseMinutes).push([minuteS, logRatio]);
  }
  if (windowCalls < MIN_WINDOW_CALLS || windowMinutes.length === 0 || baseMinutes.length < MIN_BASELINE_MINUTES) return null;
  windowMinutes.sort((a, b) => a[0] - b[0]);
  baseMinutes.sort((a, b) => a[0] - b[0]);
  const baseLogs = baseMinutes.map(([, v]) => v);
  const baseCenter = median(baseLogs);
  const sigma = Math.max(MIN_MINUTE_SIGMA, MAD_TO_SIGMA * median(baseLogs.map((v) => Math.abs(v - baseCenter))));
  const beforePerCall = baseSum / baseCalls;
  let best: SumShift | null = null;
  for (const minutes of RECENT_MINUTES) {
    const whole = minutes === 0;
    if (!whole && minutes >= windowMinutes.length) continue;
    const logs = (whole ? windowMinutes : windowMinutes.slice(-minutes)).map(([, v]) => v);
    const penalty = whole ? 0 : RECENT_PENALTY_Z;
    const shift = median(logs) - baseCenter;
    // The noise of a median of this many minutes: as if minutes were independent, or as the
    // baseline's own stretches of that length wandered, whichever is larger (slow minutes from
    // pauses cluster, and a stretch can hold more of them than a share suggests).
    const noise = Math.max((MEDIAN_EFFICIENCY * sigma) / Math.sqrt(logs.length), spread(slidingMedians(baseLogs, logs.length)));
    const z = shift / noise - penalty;
    if (best === null || z > best.z) {
      const ratio = Math.exp(shift);
      best = { ratio, z, beforePerCall, afterPerCall: beforePerCall * ratio, windowCalls, recentMinutes: whole ? null : minutes };
    }
  }
  return best;
}

/** Medians of every run of `length` consecutive values (none when there are too few to tell a spread). */
function slidingMedians(values: readonly number[], length: number): number[] {
  if (values.length < length + MIN_BASELINE_MINUTES) return [];
  const out: number[] = [];
  for (let i = 0; i + length <= values.length; i++) out.push(median(values.slice(i, i + length)));
  return out;
}

/** Sample standard deviation (0 for fewer than 3 values). */
function spread(values: readonly number[]): number {
  if (values.length < 3) return 0;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  return Math.sqrt(values.reduce((a, v) => a + (v - mean) ** 2, 0) / (values.length - 1));
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  if (sorted.length === 0) return 0;
  return sorted.length % 2 === 1 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
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
