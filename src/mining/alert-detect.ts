/** One detection tick: the three alert rules over the same template state. */
import { detectNewAlerts } from './alert-new.js';
import { detectSilenceAlerts, type SilenceSetting } from './alert-silence.js';
import { detectSpikeAlerts } from './alert-spike.js';
import type { AlertSettings, LogAlert, TemplateState } from './alert-types.js';

export interface DetectInput {
  templates: readonly TemplateState[];
  /** Injected wall clock (spike windows). */
  wallClockNs: bigint;
  /** Newest log time of this tick and of the previous one (null on the first tick). */
  dataClockNs: bigint;
  prevDataClockNs: bigint | null;
  maskingEpochStartNs: bigint | null;
  coverage: ReadonlyMap<string, ReadonlySet<number>>;
  /** Latest spike alert per template id from earlier ticks. */
  previousSpikes: ReadonlyMap<string, LogAlert>;
  silences: ReadonlyMap<string, SilenceSetting>;
  serviceLogClockNs: ReadonlyMap<string, bigint>;
  settings: AlertSettings;
}

export interface DetectResult {
  /** Alerts raised or refreshed by this tick (to upsert by alert_id and publish). */
  alerts: LogAlert[];
  spikeWindowsSkipped: number;
}

/** Runs the new, spike and silence rules; pure, all clocks injected. */
export function detectAlerts(input: DetectInput): DetectResult {
  const fresh = detectNewAlerts(input);
  const spikes = detectSpikeAlerts({ ...input, previous: input.previousSpikes });
  const silent = detectSilenceAlerts(input);
  return { alerts: [...fresh, ...spikes.alerts, ...silent], spikeWindowsSkipped: spikes.skippedWindows };
}
