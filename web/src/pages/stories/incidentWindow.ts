import { sinceSecs } from '../../lib/window.js';

/** The incident analysis's own default window: its route's default, the last 15 minutes. */
export const INCIDENT_DEFAULT_SINCE = '15m';
const INCIDENT_DEFAULT_SECS = 15 * 60;
const HOUR_SECS = 3600;

export interface IncidentWindow {
  /** The `since` to ask /api/v1/incidents for (the page's `until` goes along unchanged). */
  since: string;
  /** The window in words for the panel: "15 minutes", "5 minutes", "45 minutes". */
  length: string;
}

/**
 * The window the "What changed" panel covers, ending where the page's window ends. A page window
 * shorter than an hour is taken as asked; the page's default hour and anything longer would dilute
 * a fresh incident (a failure of the last five minutes is a twelfth of an hour's traffic), so the
 * panel then covers its last 15 minutes, the incident analysis's own default.
 */
export function incidentWindow(pageSince: string): IncidentWindow {
  const secs = sinceSecs(pageSince);
  if (secs !== null && secs > 0 && secs < HOUR_SECS) return { since: pageSince, length: lengthInWords(secs) };
  return { since: INCIDENT_DEFAULT_SINCE, length: lengthInWords(INCIDENT_DEFAULT_SECS) };
}

/** "15 minutes", "1 minute", "90 seconds", "2 hours". */
export function lengthInWords(secs: number): string {
  const [value, unit] = secs % HOUR_SECS === 0 ? [secs / HOUR_SECS, 'hour'] : secs % 60 === 0 ? [secs / 60, 'minute'] : [secs, 'second'];
  return `${value} ${unit}${value === 1 ? '' : 's'}`;
}
