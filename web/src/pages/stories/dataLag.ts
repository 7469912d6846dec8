import { formatSeconds } from '../../lib/format.js';

/** Past this, a large lag most likely means no logs arrived, not that processing fell behind. */
export const QUIET_LAG_SECS = 300;

/**
 * What the data-lag figure measures (the clock minus the newest processed log's time), in words
 * that fit the value: a small lag is processing delay, a large one usually a quiet source.
 */
export function dataLagNote(lagSecs: number): string {
  if (lagSecs > QUIET_LAG_SECS) return `no logs processed for ${formatSeconds(lagSecs)}`;
  return 'behind the newest log';
}
