/**
 * Per-minute statistics the assembler writes as it closes traces, for incident analysis (which
 * compares a window with the hour before it without reading raw spans):
 * - op_minutes: per service and operation (not client spans): calls, errors, errors that started
 *   there, self time and duration;
 * - call_minutes: per caller, callee, client span name and the peer its attributes
 *   name (so an address seen answered by a service names that service when it stops answering): calls, errors, errors of the call
 *   itself, client time, its wire part (not covered by the callee's spans) and the callee's time.
 * Both are sums of deltas (SummingMergeTree), except the largest single self or wire time of the
 * minute (`*_max`, kept by max), which lets a minute's mean leave out its one outlier (a pause);
 * reads sum() and max() because merges are eventual. Kept
 * 8 days: an incident window may start 7 days back and is compared with the hour before it.
 */

import type { Migration } from './migration.js';

export const migration0009: Migration = {
  version: 9,
  name: 'call-minutes',
  statements: [
    `CREATE TABLE IF NOT EXISTS op_minutes (
      minute DateTime,
      service LowCardinality(String),
      operation String CODEC(ZSTD(1)),
      calls UInt64,
      errors UInt64,
      origin_errors UInt64,
      self_ns_sum UInt64,
      duration_ns_sum UInt64,
      self_ns_max SimpleAggregateFunction(max, UInt64)
    ) ENGINE = SummingMergeTree
    PARTITION BY toDate(minute)
    ORDER BY (minute, service, operation)
    TTL minute + INTERVAL 8 DAY
    SETTINGS ttl_only_drop_parts = 1`,
    `CREATE TABLE IF NOT EXISTS call_minutes (
      minute DateTime,
      caller LowCardinality(String),
      callee LowCardinality(String),
      operation String CODEC(ZSTD(1)),
      peer LowCardinality(String),
      calls UInt64,
      errors UInt64,
      origin_errors UInt64,
      client_ns_sum UInt64,
      wire_ns_sum UInt64,
      wire_ns_max SimpleAggregateFunction(max, UInt64),
      served_calls UInt64,
      server_ns_sum UInt64
    ) ENGINE = SummingMergeTree
    PARTITION BY toDate(minute)
    ORDER BY (minute, caller, callee, operation, peer)
    TTL minute + INTERVAL 8 DAY
    SETTINGS ttl_only_drop_parts = 1`,
  ],
};
