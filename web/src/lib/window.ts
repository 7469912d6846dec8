// The window of a page lives in the URL as the contract's `since` and `until` parameters.

export const SINCE_PRESETS = ['5m', '15m', '1h', '6h', '24h', '3d', '7d'];

const UNIT_SECS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** Seconds of a `<n>s|m|h|d` value, or null when it is not one. */
export function sinceSecs(since: string): number | null {
  const match = /^(\d+)([smhd])$/.exec(since);
  const unitSecs = match?.[2] === undefined ? undefined : UNIT_SECS[match[2]];
  return match === null || unitSecs === undefined ? null : Number(match[1]) * unitSecs;
}

/** Unix ms of an `until` value (RFC 3339 or Unix seconds), or null for "now" / unreadable. */
export function untilMs(until: string): number | null {
  if (until === '') return null;
  if (/^\d+$/.test(until)) return Number(until) * 1000;
  const ms = Date.parse(until);
  return Number.isNaN(ms) ? null : ms;
}

/** An RFC 3339 UTC value without fractions, the readable form the app writes into URLs. */
export function toUntilParam(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** `datetime-local` input value (local time) of a Unix-ms instant. */
export function toLocalInput(ms: number): string {
  const date = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The window's bounds in Unix ms, for axes; `defaultSince` is the route's default. */
export function windowBounds(since: string, until: string, defaultSince: string, nowMs = Date.now()): { startMs: number; endMs: number } {
  const endMs = untilMs(until) ?? nowMs;
  const secs = sinceSecs(since) ?? sinceSecs(defaultSince) ?? 3600;
  return { startMs: endMs - secs * 1000, endMs };
}

/** Keeps since/until when moving between pages, so a shared window follows the user. */
export function withWindow(path: string, query: URLSearchParams): string {
  const keep = new URLSearchParams();
  for (const key of ['since', 'until']) {
    const value = query.get(key);
    if (value) keep.set(key, value);
  }
  const search = keep.toString();
  if (search === '') return path;
  return path.includes('?') ? `${path}&${search}` : `${path}?${search}`;
}
