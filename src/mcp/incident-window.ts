/**
 * The window whats_wrong asks the incident analysis about: it ends where the tool's window ends;
 * a window shorter than an hour is taken as asked, the default hour and anything longer give their
 * last 15 minutes (a fresh outage is a small share of a long window's traffic and would be diluted).
 * The Stories page's "What changed" panel follows the same rule.
 */

import { HOUR_SECS } from '../util/time-units.js';

/** The incident analysis's own default: the last 15 minutes, against the hour before. */
export const INCIDENT_DEFAULT_SINCE = '15m';

const UNIT_SECS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400 };

/** The `since` for /api/v1/incidents given the tool's `since` (undefined: the tool's default hour). */
export function incidentSince(toolSince: string | undefined): string {
  const match = /^([0-9]+)([smhd])$/.exec(toolSince ?? '');
  if (match === null) return INCIDENT_DEFAULT_SINCE;
  const secs = Number(match[1]) * (UNIT_SECS[match[2] ?? ''] ?? 0);
  return secs > 0 && secs < HOUR_SECS ? (toolSince as string) : INCIDENT_DEFAULT_SINCE;
}
