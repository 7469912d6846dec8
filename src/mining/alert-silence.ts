/** `silence` alerts (opt-in per template), judged in log time. */
import { alertId } from './alert-id.js';
import { NS_PER_MINUTE, type LogAlert, type TemplateState } from './alert-types.js';

/** The silence setting of a template, as the silence endpoint stores it. */
export interface SilenceSetting {
  enabled: boolean;
  minutes: number;
}

export interface SilenceInput {
  templates: readonly TemplateState[];
  silences: ReadonlyMap<string, SilenceSetting>;
  /** Newest log time seen per service (the service's log clock). */
  serviceLogClockNs: ReadonlyMap<string, bigint>;
}

/**
 * Rule (DESIGN.md §5): with silence enabled for M minutes, once the service's log clock passes
 * the template's last hit + M minutes, a silence alert runs with started_at = last hit and
 * last_at = the service's log clock, refreshed every tick while it lasts. A new hit moves the
 * last hit, which ends that alert (its id, keyed on the last hit, is no longer produced).
 */
export function detectSilenceAlerts(input: SilenceInput): LogAlert[] {
  const out: LogAlert[] = [];
  for (const t of input.templates) {
    const silence = input.silences.get(t.templateId);
    if (silence === undefined || !silence.enabled) continue;
    const clockNs = input.serviceLogClockNs.get(t.service);
    if (clockNs === undefined) continue;
    if (clockNs <= t.lastSeenNs + BigInt(silence.minutes) * NS_PER_MINUTE) continue;
    out.push({
      alert_id: alertId('silence', t.templateId, t.lastSeenNs),
      kind: 'silence',
      template_id: t.templateId,
      service: t.service,
      template: t.template,
      started_at_ns: t.lastSeenNs,
      last_at_ns: clockNs,
      window_count: 0,
      peak_count: 0,
      baseline_per_window: 0,
      example_traces: [],
    });
  }
  return out;
}
