/**
 * The contract's window parameters ("Window parameters"): `since` and `until` to a half-open window
 * [start, end), its bucket size and its epoch-grid buckets. Pure: the clock is passed in.
 */

import { badRequest } from './errors.js';
import { DAY_SECS } from '../util/time-units.js';

/** `since` range and the oldest allowed window start: 7 days. */
export const MAX_WINDOW_SECS = 7 * DAY_SECS;
/** How far `until` may lie in the future, and how far past now row lists reach without `until`. */
export const FUTURE_SLACK_SECS = 60;
/** About this many buckets per window. */
const TARGET_BUCKETS = 120;

const UNIT_SECS: Record<string, number> = { s: 1, m: 60, h: 3_600, d: DAY_SECS };
const SINCE = /^(\d{1,9})([smhd])$/;
const UNIX_SECS = /^\d{1,15}$/;
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;

export interface TimeWindow {
  /** Inclusive window start, Unix ms. */
  startMs: number;
  /** Exclusive window end, Unix ms: `until`, or now. Counts, rates and series stop here. */
  endMs: number;
  /** Exclusive end for row lists: the window end, or now + 60 s when `until` is absent (late stamps). */
  rowsEndMs: number;
  windowSecs: number;
  bucketSecs: number;
  /** The clock reading the window was resolved against. */
  nowMs: number;
}

/** `since` as seconds; empty or absent means the route default. */
export function parseSince(value: string | undefined, defaultSecs: number): number {
  if (value === undefined || value === '') return defaultSecs;
  const match = SINCE.exec(value);
  if (match === null) throw badRequest('since must be <n>s, <n>m, <n>h or <n>d');
  const secs = Number(match[1]) * UNIT_SECS[match[2]];
  if (secs < 1 || secs > MAX_WINDOW_SECS) throw badRequest('since must be within 1s..7d');
  return secs;
}

/** `until` as Unix seconds: RFC 3339 with any offset (fractions dropped) or Unix seconds. */
export function parseUntil(value: string): number {
  if (UNIX_SECS.test(value)) return Number(value);
  const match = RFC3339.exec(value);
  if (match === null) throw badRequest('until must be rfc 3339 or unix seconds');
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const offsetHours = match[9] === undefined ? 0 : Number(match[9]);
  const offsetMinutes = match[10] === undefined ? 0 : Number(match[10]);
  const daysInMonth = month >= 1 && month <= 12 ? new Date(Date.UTC(year, month, 0)).getUTCDate() : 0;
  // Second 60 is RFC 3339's leap second; Date.UTC rolls it into the next minute.
  if (day < 1 || day > daysInMonth || hour > 23 || minute > 59 || second > 60 || offsetHours > 23 || offsetMinutes > 59) {
    throw badRequest('until must be rfc 3339 or unix seconds');
  }
  const localSecs = Date.UTC(year, month - 1, day, hour, minute, second) / 1000;
  const offsetSecs = (match[8] === '-' ? -1 : 1) * (offsetHours * 3_600 + offsetMinutes * 60);
  return localSecs - offsetSecs;
}

/** Window length / 120 rounded up to whole minutes, at least 60 (60 for 1h, 720 for 24h, 5040 for 7d). */
export function bucketSecsFor(windowSecs: number): number {
  return Math.max(60, Math.ceil(windowSecs / TARGET_BUCKETS / 60) * 60);
}

/** Resolves the query's `since`/`until` against `nowMs`, enforcing every window limit. */
export function resolveWindow(query: { since?: string; until?: string }, defaultSinceSecs: number, nowMs: number): TimeWindow {
  const windowSecs = parseSince(query.since, defaultSinceSecs);
  const untilGiven = query.until !== undefined && query.until !== '';
  return windowFrom({ windowSecs, untilSecs: untilGiven ? parseUntil(query.until as string) : undefined }, nowMs);
}

/** The window of parsed `since` (seconds) and `until` (Unix seconds, absent means now), with the limits that depend on the clock. */
export function windowFrom(parsed: { windowSecs: number; untilSecs?: number }, nowMs: number): TimeWindow {
  const { windowSecs, untilSecs } = parsed;
  let endMs = Math.floor(nowMs);
  if (untilSecs !== undefined) {
    const untilMs = untilSecs * 1000;
    if (untilMs - nowMs > FUTURE_SLACK_SECS * 1000) throw badRequest(`until must be at most ${FUTURE_SLACK_SECS}s in the future`);
    endMs = untilMs;
  }
  const startMs = endMs - windowSecs * 1000;
  if (startMs < nowMs - MAX_WINDOW_SECS * 1000) throw badRequest('window start must be within the last 7 days');
  return {
    startMs,
    endMs,
    rowsEndMs: untilSecs !== undefined ? endMs : Math.floor(nowMs) + FUTURE_SLACK_SECS * 1000,
    windowSecs,
    bucketSecs: bucketSecsFor(windowSecs),
    nowMs,
  };
}

/** Start (Unix seconds, a multiple of `bucketSecs`) of the grid bucket holding `tsMs`. */
export function bucketStartSecs(tsMs: number, bucketSecs: number): number {
  return Math.floor(tsMs / 1000 / bucketSecs) * bucketSecs;
}

/** Every grid bucket start overlapping the window, oldest first; the first and last may be partial. */
export function bucketGrid(window: TimeWindow): number[] {
  const first = bucketStartSecs(window.startMs, window.bucketSecs);
  const last = bucketStartSecs(window.endMs - 1, window.bucketSecs);
  const starts: number[] = [];
  for (let start = first; start <= last; start += window.bucketSecs) starts.push(start);
  return starts;
}

/** Seconds of the bucket starting at `bucketStartSecs` that lie inside the window (for per-second rates). */
export function bucketCoveredSecs(window: TimeWindow, bucketStart: number): number {
  const fromMs = Math.max(window.startMs, bucketStart * 1000);
  const toMs = Math.min(window.endMs, (bucketStart + window.bucketSecs) * 1000);
  return Math.max(0, toMs - fromMs) / 1000;
}

/** Unix ms to Unix ns, exact. */
export function msToNs(ms: number): bigint {
  return BigInt(Math.floor(ms)) * 1_000_000n;
}
