/**
 * What the logminer needs beyond the initial schema.
 * - templates.signature, overflow, created_seq: restoring the miner after a restart needs each
 *   template's first masked token signature (its prefix-tree path and id input), whether it is a
 *   service's overflow template, and the creation order (ties in a tree leaf go to the oldest).
 * - logminer_state.keep_http_status: a changed keep_http_status changes masking and starts a
 *   masking epoch like a new masking version does.
 * - template_minutes: hits per template per Unix minute, kept 8 days. template_hits live 3 days,
 *   but seasonal spike detection compares with the same window a week earlier; the minute rows
 *   also give the per-service coverage (a minute is covered when the service logged in it) and
 *   cheap whole-minute counts for the API's buckets. Rows are deltas summed by the engine.
 * - template_hits.idx_ts_ns: the API counts the partial minutes at a window's edges from hits
 *   across all templates; without it that time filter would scan a whole day's partition.
 */

import type { Migration } from './migration.js';

export const migration0003: Migration = {
  version: 3,
  name: 'logminer',
  statements: [
    'ALTER TABLE templates ADD COLUMN IF NOT EXISTS signature String CODEC(ZSTD(1))',
    'ALTER TABLE templates ADD COLUMN IF NOT EXISTS overflow Bool DEFAULT false',
    'ALTER TABLE templates ADD COLUMN IF NOT EXISTS created_seq UInt64',
    'ALTER TABLE logminer_state ADD COLUMN IF NOT EXISTS keep_http_status Bool DEFAULT true',
    'ALTER TABLE template_hits ADD INDEX IF NOT EXISTS idx_ts_ns ts_ns TYPE minmax GRANULARITY 1',
    `CREATE TABLE IF NOT EXISTS template_minutes (
      service LowCardinality(String),
      template_id UInt64,
      minute UInt32,
      hits UInt64
    ) ENGINE = SummingMergeTree(hits)
    PARTITION BY toDate(toDateTime(toUInt64(minute) * 60))
    ORDER BY (service, template_id, minute)
    TTL toDateTime(toUInt64(minute) * 60) + INTERVAL 8 DAY
    SETTINGS ttl_only_drop_parts = 1`,
  ],
};
