/** Shapes shared by the log-alert detectors. Timestamps are Unix nanoseconds (bigint, exact). */
import type { AlertKind, BaselineMode } from '../config/settings.js';
import { NS_PER_MINUTE } from '../util/time-units.js';

/** The contract's Log alert shape (`active` is computed at read time, see alert-status.ts). */
export interface LogAlert {
  alert_id: string;
  kind: AlertKind;
  template_id: string;
  service: string;
  template: string;
  started_at_ns: bigint;
  last_at_ns: bigint;
  window_count: number;
  peak_count: number;
  baseline_per_window: number;
  /** Filled by the shell from stored hits; the pure detectors leave it empty. */
  example_traces: { trace_id: string; story_id: string | null }[];
  baseline_day?: number;
  baseline_week?: number;
}

/** What the detectors know about one template. */
export interface TemplateState {
  templateId: string;
  service: string;
  template: string;
  firstSeenNs: bigint;
  /** Newest hit in log time. */
  lastSeenNs: bigint;
  /** Hits per Unix minute (minute = floor(ns / 60e9)); only the minutes the detectors need. */
  minuteCounts: ReadonlyMap<number, number>;
  /** Hits so far (used as the count of `new` alerts). */
  totalCount: number;
}

/** The alert settings, named as in the logminer settings table. */
export interface AlertSettings {
  spike_window_min: number;
  baseline_window_min: number;
  spike_factor: number;
  spike_min_count: number;
  baseline_mode: BaselineMode;
  new_template_warmup_min: number;
}

/** Contract constants that are not settings. */
export const NEW_ALERT_DATA_CLOCK_SLACK_NS = 60n * 1_000_000_000n;
export const MASKING_EPOCH_QUIET_NS = 15n * 60n * 1_000_000_000n;
export const SPIKE_MIN_TEMPLATE_AGE_NS = 10n * 60n * 1_000_000_000n;
export const ACTIVE_WINDOW_NS = 10n * 60n * 1_000_000_000n;
export { NS_PER_MINUTE };

/** Unix minute of a nanosecond timestamp. */
export function minuteOf(ns: bigint): number {
  return Number(ns / NS_PER_MINUTE);
}
