// What a log alert counted, in words (pure, so it is unit-tested without a DOM).
import type { LogAlert } from '../../api/types';
import { formatCount, formatCountOf, formatDuration, formatNumber } from '../../lib/format.js'; // .js: the unit tests run the compiled file in node

/**
 * What the alert counted against what is normal. `new` and `silence` alerts carry no window count:
 * a `new` alert's peak is the template's hits so far; a silence alert started at the template's
 * last hit and is refreshed while the silence lasts, so last seen minus started is how long it has
 * been silent. A spike counts its window against the baseline per window.
 */
export function alertCounts(alert: LogAlert): string {
  if (alert.kind === 'new') return `new template; ${formatCountOf(alert.peak_count, 'hit')} so far`;
  if (alert.kind === 'silence') {
    const silentNs = alert.last_at_ns - alert.started_at_ns;
    return silentNs > 0 ? `no hits for ${formatDuration(silentNs)} since the last one` : 'no hits since the last one';
  }
  const seasonal = [
    alert.baseline_day === undefined ? '' : `day ago ${formatNumber(alert.baseline_day)}`,
    alert.baseline_week === undefined ? '' : `week ago ${formatNumber(alert.baseline_week)}`,
  ]
    .filter(Boolean)
    .join(', ');
  return `${formatCount(alert.window_count)} in the window against a baseline of ${formatNumber(alert.baseline_per_window)} per window (peak ${formatCount(alert.peak_count)}${seasonal === '' ? '' : `; ${seasonal}`})`;
}
