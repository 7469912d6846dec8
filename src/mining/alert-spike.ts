/** `spike` alerts: a template's count in the latest wall-clock window against its baselines. */
import { alertId } from './alert-id.js';
import { NS_PER_MINUTE, SPIKE_MIN_TEMPLATE_AGE_NS, type AlertSettings, type LogAlert, type TemplateState } from './alert-types.js';
import { MINUTES_PER_DAY } from '../util/time-units.js';

const MINUTES_PER_WEEK = 7 * MINUTES_PER_DAY;

export interface SpikeInput {
  templates: readonly TemplateState[];
  /** Injected wall clock: windows are the last whole minutes before it. */
  wallClockNs: bigint;
  /** Unix minutes in which each service logged at least one line. */
  coverage: ReadonlyMap<string, ReadonlySet<number>>;
  /** The latest spike alert of each template from earlier ticks, to continue a running spike. */
  previous: ReadonlyMap<string, LogAlert>;
  settings: AlertSettings;
}

export interface SpikeResult {
  alerts: LogAlert[];
  /**
   * Windows skipped for thin coverage: templates with at least spike_min_count hits in the window
   * whose service covered under half of the window's or of the baseline's minutes.
   */
  skippedWindows: number;
}

function sumMinutes(counts: ReadonlyMap<number, number>, fromMin: number, toMin: number): number {
  let n = 0;
  for (let m = fromMin; m < toMin; m++) n += counts.get(m) ?? 0;
  return n;
}

function coveredMinutes(covered: ReadonlySet<number> | undefined, fromMin: number, toMin: number): number {
  if (covered === undefined) return 0;
  let n = 0;
  for (let m = fromMin; m < toMin; m++) if (covered.has(m)) n++;
  return n;
}

/** At least half of the minutes covered. */
function wellCovered(covered: ReadonlySet<number> | undefined, fromMin: number, toMin: number): boolean {
  return coveredMinutes(covered, fromMin, toMin) * 2 >= toMin - fromMin;
}

/**
 * Rule: count in the window >= spike_factor x baseline_per_window (the baseline_window_min
 * before the window, scaled to the window length) and >= spike_min_count, the template at least
 * 10 minutes old at the window end. In seasonal mode the count must also reach spike_factor x
 * the same window a day and a week earlier, each compared only when that window is well covered
 * (no history yet is no evidence). A spike whose previous alert reached into this window goes on
 * under the same id, with its peak kept.
 */
export function detectSpikeAlerts(input: SpikeInput): SpikeResult {
  const s = input.settings;
  const windowEndMin = Number(input.wallClockNs / NS_PER_MINUTE);
  const windowStartMin = windowEndMin - s.spike_window_min;
  const baselineStartMin = windowStartMin - s.baseline_window_min;
  const windowStartNs = BigInt(windowStartMin) * NS_PER_MINUTE;
  const windowEndNs = BigInt(windowEndMin) * NS_PER_MINUTE;
  const scale = s.spike_window_min / s.baseline_window_min;
  const alerts: LogAlert[] = [];
  let skippedWindows = 0;
  for (const t of input.templates) {
    const windowCount = sumMinutes(t.minuteCounts, windowStartMin, windowEndMin);
    if (windowCount < s.spike_min_count) continue;
    if (t.firstSeenNs > windowEndNs - SPIKE_MIN_TEMPLATE_AGE_NS) continue;
    const covered = input.coverage.get(t.service);
    if (!wellCovered(covered, windowStartMin, windowEndMin) || !wellCovered(covered, baselineStartMin, windowStartMin)) {
      skippedWindows++;
      continue;
    }
    const baselinePerWindow = sumMinutes(t.minuteCounts, baselineStartMin, windowStartMin) * scale;
    if (windowCount < s.spike_factor * baselinePerWindow) continue;
    let baselineDay: number | undefined;
    let baselineWeek: number | undefined;
    if (s.baseline_mode === 'seasonal') {
      baselineDay = sumMinutes(t.minuteCounts, windowStartMin - MINUTES_PER_DAY, windowEndMin - MINUTES_PER_DAY);
      baselineWeek = sumMinutes(t.minuteCounts, windowStartMin - MINUTES_PER_WEEK, windowEndMin - MINUTES_PER_WEEK);
      const dayKnown = wellCovered(covered, windowStartMin - MINUTES_PER_DAY, windowEndMin - MINUTES_PER_DAY);
      const weekKnown = wellCovered(covered, windowStartMin - MINUTES_PER_WEEK, windowEndMin - MINUTES_PER_WEEK);
      if (dayKnown && windowCount < s.spike_factor * baselineDay) continue;
      if (weekKnown && windowCount < s.spike_factor * baselineWeek) continue;
    }
    const prev = input.previous.get(t.templateId);
    const continues = prev !== undefined && prev.kind === 'spike' && prev.last_at_ns >= windowStartNs;
    const alert: LogAlert = {
      alert_id: continues ? prev.alert_id : alertId('spike', t.templateId, windowStartMin),
      kind: 'spike',
      template_id: t.templateId,
      service: t.service,
      template: t.template,
      started_at_ns: continues ? prev.started_at_ns : windowStartNs,
      last_at_ns: windowEndNs,
      window_count: windowCount,
      peak_count: continues ? Math.max(prev.peak_count, windowCount) : windowCount,
      baseline_per_window: baselinePerWindow,
      example_traces: [],
    };
    if (baselineDay !== undefined) alert.baseline_day = baselineDay;
    if (baselineWeek !== undefined) alert.baseline_week = baselineWeek;
    alerts.push(alert);
  }
  return { alerts, skippedWindows };
}
