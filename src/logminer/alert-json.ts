/** An alert in the API's Log alert shape: the value of an alerts-topic record. */
import { isAlertActive } from '../mining/alert-status.js';
import type { LogAlert as MinedAlert } from '../mining/alert-types.js';
import type { LogAlert } from '../store/reads/log-alert-shape.js';

/**
 * `active` is judged at `nowMs` with the logminer's `alert_active_min` (the API's fixed 10 minutes
 * by default); example traces get their story ids from `withStories`.
 */
export function alertForApi(alert: MinedAlert, nowMs: number, withStories: ReadonlySet<string>, activeWindowMs: number): LogAlert {
  const out: LogAlert = {
    alert_id: alert.alert_id,
    kind: alert.kind,
    template_id: alert.template_id,
    service: alert.service,
    template: alert.template,
    started_at_ns: alert.started_at_ns,
    last_at_ns: alert.last_at_ns,
    window_count: alert.window_count,
    peak_count: alert.peak_count,
    baseline_per_window: alert.baseline_per_window,
    active: isAlertActive(alert, BigInt(Math.floor(nowMs)) * 1_000_000n, BigInt(activeWindowMs) * 1_000_000n),
    example_traces: alert.example_traces.map((t) => ({ trace_id: t.trace_id, story_id: withStories.has(t.trace_id) ? t.trace_id : null })),
  };
  if (alert.baseline_day !== undefined) out.baseline_day = alert.baseline_day;
  if (alert.baseline_week !== undefined) out.baseline_week = alert.baseline_week;
  return out;
}
