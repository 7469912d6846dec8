/** Read-time alert state: `active` and a template's `alerting` flag. */
import { ACTIVE_WINDOW_NS, type LogAlert } from './alert-types.js';

/** An alert is active while its last_at is within `activeWindowNs` (10 minutes) of the window end. */
export function isAlertActive(alert: Pick<LogAlert, 'last_at_ns'>, windowEndNs: bigint, activeWindowNs: bigint = ACTIVE_WINDOW_NS): boolean {
  return alert.last_at_ns >= windowEndNs - activeWindowNs;
}

/** A template is alerting when one of its `new` or `spike` alerts is active (silence does not count). */
export function isTemplateAlerting(
  alerts: readonly Pick<LogAlert, 'kind' | 'last_at_ns'>[],
  windowEndNs: bigint,
  activeWindowNs: bigint = ACTIVE_WINDOW_NS,
): boolean {
  return alerts.some((a) => a.kind !== 'silence' && isAlertActive(a, windowEndNs, activeWindowNs));
}
