// Display helpers: times in local time (UTC on hover), durations in human units, never raw ns.

const NS_PER_MS = 1e6;

/** A duration in ns as "850 µs", "12.3 ms", "4.07 s", "2 min 5 s", "3 h 20 min". */
export function formatDuration(ns: number): string {
  if (!Number.isFinite(ns)) return '–';
  const abs = Math.abs(ns);
  const sign = ns < 0 ? '-' : '';
  // Compare after rounding, so 999.96 µs reads "1 ms", not "1000 µs".
  if (Math.round(abs) < 1e3) return `${sign}${Math.round(abs)} ns`;
  if (round3(abs / 1e3) < 1e3) return `${sign}${trim(abs / 1e3)} µs`;
  if (round3(abs / 1e6) < 1e3) return `${sign}${trim(abs / 1e6)} ms`;
  const secs = abs / 1e9;
  if (round3(secs) < 60) return `${sign}${trim(secs)} s`;
  if (secs < 3600) return `${sign}${Math.floor(secs / 60)} min ${Math.round(secs % 60)} s`;
  if (secs < 86400) return `${sign}${Math.floor(secs / 3600)} h ${Math.round((secs % 3600) / 60)} min`;
  return `${sign}${Math.floor(secs / 86400)} d ${Math.round((secs % 86400) / 3600)} h`;
}

/** Seconds in human units (data lag); below a second it stays in seconds ("0 s", "0.25 s"). */
export function formatSeconds(secs: number): string {
  return Math.abs(secs) < 1 ? `${trim(secs)} s` : formatDuration(secs * 1e9);
}

const round3 = (value: number): number => Number(value.toPrecision(3));

/** Three significant digits, no trailing zeros. */
function trim(value: number): string {
  return String(Number(value.toPrecision(3)));
}

const localFormat = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});
const localTimeOnly = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

/** Local date and time of a Unix-ms instant. */
export function formatLocal(ms: number, timeOnly = false): string {
  return (timeOnly ? localTimeOnly : localFormat).format(new Date(ms));
}

/** ISO 8601 UTC of a Unix-ms instant, shown on hover. */
export function formatUtc(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, ' UTC');
}

export const nsToMs = (ns: number): number => ns / NS_PER_MS;

const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });

/** A count with grouping. */
export function formatCount(value: number): string {
  return integer.format(value);
}

/** A rate or ratio-free number with up to two decimals. */
export function formatNumber(value: number): string {
  return decimal.format(value);
}

/** A count with its noun, singular for exactly one: "1 call", "2 calls", "1,204 calls". */
export function formatCountOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(count)} ${count === 1 ? singular : plural}`;
}

const round2 = (value: number): number => Math.round(value * 100) / 100;

/**
 * A rate given per second, in the largest unit where it reads at least 1 after rounding to two
 * decimals: "12.5/s", "3/min", "3/h"; below 0.01/h it reads "< 0.01/h" and exactly 0 "0/s".
 * So 3 calls an hour read "3/h", never "0/s".
 */
export function formatRate(perSec: number): string {
  if (!Number.isFinite(perSec)) return '–';
  if (perSec <= 0) return perSec === 0 ? '0/s' : `${formatNumber(perSec)}/s`;
  if (round2(perSec) >= 1) return `${formatNumber(perSec)}/s`;
  if (round2(perSec * 60) >= 1) return `${formatNumber(perSec * 60)}/min`;
  const perHour = perSec * 3600;
  return round2(perHour) > 0 ? `${formatNumber(perHour)}/h` : '< 0.01/h';
}

export type RateUnit = 's' | 'min' | 'h';
const RATE_UNIT_SECS: Record<RateUnit, number> = { s: 1, min: 60, h: 3600 };

/** The one unit for a set of rates (a map): the largest per-time unit in which the top rate is at least 1. */
export function rateUnitFor(maxPerSec: number): RateUnit {
  if (!(maxPerSec > 0) || round2(maxPerSec) >= 1) return 's';
  return round2(maxPerSec * 60) >= 1 ? 'min' : 'h';
}

/** A rate in a given unit, so rates drawn together compare at a glance. */
export function formatRateIn(perSec: number, unit: RateUnit): string {
  if (!Number.isFinite(perSec)) return '–';
  const value = perSec * RATE_UNIT_SECS[unit];
  if (value > 0 && round2(value) === 0) return `< 0.01/${unit}`;
  return `${formatNumber(value)}/${unit}`;
}

/** A 0..1 ratio as a percentage. */
export function formatPercent(ratio: number): string {
  if (!Number.isFinite(ratio)) return '–';
  if (ratio > 0 && ratio < 0.001) return '<0.1 %';
  return `${Number((ratio * 100).toPrecision(3))} %`;
}

/** How long ago a Unix-ms instant was, coarse ("3 min ago"). */
export function formatAgo(ms: number, nowMs = Date.now()): string {
  const secs = Math.max(0, Math.round((nowMs - ms) / 1000));
  if (secs < 60) return `${secs} s ago`;
  if (secs < 3600) return `${Math.floor(secs / 60)} min ago`;
  if (secs < 86400) return `${Math.floor(secs / 3600)} h ago`;
  return `${Math.floor(secs / 86400)} d ago`;
}

/** Severity number (OTLP 1..24) to its short name. */
export function severityName(number: number, text = ''): string {
  if (text !== '') return text;
  if (number >= 21) return 'FATAL';
  if (number >= 17) return 'ERROR';
  if (number >= 13) return 'WARN';
  if (number >= 9) return 'INFO';
  if (number >= 5) return 'DEBUG';
  if (number >= 1) return 'TRACE';
  return 'UNSET';
}
