/**
 * Operations of each analysed trace, for endpoint baselines. The assembler rebuilds baselines every
 * `baseline_refresh_secs` from the last `baseline_window_minutes` of non-error trace summaries;
 * the diff against a baseline (new, missing, slower operations) needs each trace's operations and
 * their total time, which the initial schema did not keep.
 * ops: `service: span name` keys, sorted; op_durations_ns: the op's summed span time, same order.
 */

import type { Migration } from './migration.js';

export const migration0002: Migration = {
  version: 2,
  name: 'trace-ops',
  statements: [
    'ALTER TABLE trace_summaries ADD COLUMN IF NOT EXISTS ops Array(String) CODEC(ZSTD(1))',
    'ALTER TABLE trace_summaries ADD COLUMN IF NOT EXISTS op_durations_ns Array(Int64) CODEC(ZSTD(1))',
  ],
};
