/** `new` alerts: a template first seen since the previous detection tick, in a warmed-up service. */
import { alertId } from './alert-id.js';
import {
  MASKING_EPOCH_QUIET_NS,
  NEW_ALERT_DATA_CLOCK_SLACK_NS,
  NS_PER_MINUTE,
  minuteOf,
  type AlertSettings,
  type LogAlert,
  type TemplateState,
} from './alert-types.js';

export interface NewAlertInput {
  templates: readonly TemplateState[];
  /** Data clock (newest log time) of the previous tick; null on the first tick after a start. */
  prevDataClockNs: bigint | null;
  /** Data clock of this tick. */
  dataClockNs: bigint;
  /**
   * Start of the current masking epoch in log time, or null when none is in force (a fresh data
   * directory starts without one).
   */
  maskingEpochStartNs: bigint | null;
  settings: Pick<AlertSettings, 'new_template_warmup_min'>;
}

/**
 * Rule: first seen after the previous tick's data clock minus 60 s (on the first tick after a
 * start, this tick's clock stands in, so a restart does not re-announce old templates), where another template
 * of the service was first seen at least new_template_warmup_min earlier. During the 15 minutes
 * after a masking epoch starts nothing is raised: neither on a tick whose data clock is inside
 * that period, nor later for a template first seen inside it (or before it: re-mined templates
 * get new ids but are not new log events).
 */
export function detectNewAlerts(input: NewAlertInput): LogAlert[] {
  const { templates, prevDataClockNs, dataClockNs, maskingEpochStartNs } = input;
  const quietUntilNs = maskingEpochStartNs === null ? null : maskingEpochStartNs + MASKING_EPOCH_QUIET_NS;
  if (quietUntilNs !== null && dataClockNs < quietUntilNs) return [];
  const warmupNs = BigInt(input.settings.new_template_warmup_min) * NS_PER_MINUTE;
  const earliest = earliestTwoPerService(templates);
  const sinceNs = (prevDataClockNs ?? dataClockNs) - NEW_ALERT_DATA_CLOCK_SLACK_NS;
  const out: LogAlert[] = [];
  for (const t of templates) {
    if (t.firstSeenNs <= sinceNs) continue;
    if (quietUntilNs !== null && t.firstSeenNs < quietUntilNs) continue;
    const e = earliest.get(t.service);
    // The earliest template of the service other than this one.
    const other = e === undefined ? undefined : e[0] === t ? e[1] : e[0];
    if (other === undefined || other.firstSeenNs > t.firstSeenNs - warmupNs) continue;
    out.push({
      alert_id: alertId('new', t.templateId, minuteOf(t.firstSeenNs)),
      kind: 'new',
      template_id: t.templateId,
      service: t.service,
      template: t.template,
      started_at_ns: t.firstSeenNs,
      last_at_ns: t.lastSeenNs > t.firstSeenNs ? t.lastSeenNs : t.firstSeenNs,
      window_count: 0,
      peak_count: t.totalCount,
      baseline_per_window: 0,
      example_traces: [],
    });
  }
  return out;
}

/** The two earliest-seen templates of each service (ties: input order). */
function earliestTwoPerService(templates: readonly TemplateState[]): Map<string, [TemplateState, TemplateState | undefined]> {
  const out = new Map<string, [TemplateState, TemplateState | undefined]>();
  for (const t of templates) {
    const e = out.get(t.service);
    if (e === undefined) out.set(t.service, [t, undefined]);
    else if (t.firstSeenNs < e[0].firstSeenNs) out.set(t.service, [t, e[0]]);
    else if (e[1] === undefined || t.firstSeenNs < e[1].firstSeenNs) e[1] = t;
  }
  return out;
}
