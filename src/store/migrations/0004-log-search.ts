/**
 * Skipping indexes for the log search routes. The logs table is sorted by trace id for trace reads,
 * so a search over a time window cannot use the sort key for anything but trace_id; these indexes
 * let the engine skip granules instead:
 * - idx_body_ngram: 3-gram bloom filter over the lower-cased body. The search matches every word of
 *   `q` with `lowerUTF8(body) LIKE '%word%'`, which this index answers for words of 3+ characters
 *   (a token bloom filter would miss words that are parts of tokens, as "time" in "timeout").
 * - idx_log_id: the template filter selects logs by the log ids of a template's hits.
 * - idx_severity: minimum-severity searches skip granules of only lower severities.
 * MATERIALIZE builds them for parts written before this migration (a background mutation; parts
 * not yet rebuilt are read in full, so results never depend on it having finished).
 */

import type { Migration } from './migration.js';

export const migration0004: Migration = {
  version: 4,
  name: 'log-search',
  statements: [
    'ALTER TABLE logs ADD INDEX IF NOT EXISTS idx_body_ngram lowerUTF8(body) TYPE ngrambf_v1(3, 65536, 2, 0) GRANULARITY 1',
    'ALTER TABLE logs ADD INDEX IF NOT EXISTS idx_log_id log_id TYPE bloom_filter(0.01) GRANULARITY 1',
    'ALTER TABLE logs ADD INDEX IF NOT EXISTS idx_severity severity_number TYPE minmax GRANULARITY 1',
    'ALTER TABLE logs MATERIALIZE INDEX idx_body_ngram',
    'ALTER TABLE logs MATERIALIZE INDEX idx_log_id',
    'ALTER TABLE logs MATERIALIZE INDEX idx_severity',
  ],
};
