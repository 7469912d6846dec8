/** The alerts of one bus batch that the notifier delivers. */

import type { BusRecord } from '../model/bus.js';
import { parseAlertRecord, type NotifierAlert } from './alert.js';

/** Newest copy (greatest last_at) of each alert in the batch, of a delivered kind; `onBad` hears of each record that is not an alert. */
export function newestAlerts(
  records: readonly BusRecord[],
  kinds: ReadonlySet<string>,
  onBad: (record: BusRecord, reason: string) => void,
): Map<string, NotifierAlert> {
  const alerts = new Map<string, NotifierAlert>();
  for (const record of records) {
    const parsed = parseAlertRecord(record.value);
    if (!parsed.ok) {
      onBad(record, parsed.reason);
      continue;
    }
    if (!kinds.has(parsed.alert.kind)) continue;
    const seen = alerts.get(parsed.alert.alert_id);
    if (seen === undefined || parsed.alert.last_at_ns >= seen.last_at_ns) alerts.set(parsed.alert.alert_id, parsed.alert);
  }
  return alerts;
}
