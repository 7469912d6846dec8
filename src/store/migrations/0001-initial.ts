/**
 * The initial schema. Conventions every later query can rely on:
 * - Times are Int64 Unix nanoseconds (`*_ns`) or milliseconds (`*_ms`), exact to the unit; the
 *   DateTime needed by PARTITION BY and TTL is derived from them, never stored twice.
 * - Ids from the contract keep their types: trace/span/story ids are lowercase hex String,
 *   fingerprints, template ids and log ids UInt64 (they leave as decimal strings).
 * - Each TTL is the contract's table lifetime; TTL deletes lazily, so reads filter by it too
 *   (see ../lifetimes.ts).
 * - Replaying tables are ReplacingMergeTree; merges are eventual, so reads dedupe explicitly
 *   (`LIMIT 1 BY <key>` after ordering by the version column, or argMax).
 * - Attribute lists and other nested payloads are JSON text in ZSTD Strings: returned exactly
 *   as written, never re-encoded by the database.
 * Tables are named plainly; the database comes from `clickhouse.database`.
 */

import type { Migration } from './migration.js';

/** DateTime of a Unix-nanosecond column, for PARTITION BY and TTL. */
const nsTime = (column: string): string => `toDateTime(intDiv(${column}, 1000000000))`;
/** DateTime of a Unix-millisecond column. */
const msTime = (column: string): string => `toDateTime(intDiv(${column}, 1000))`;

const SPAN_KIND = "Enum8('unspecified' = 0, 'internal' = 1, 'server' = 2, 'client' = 3, 'producer' = 4, 'consumer' = 5)";
const SPAN_STATUS = "Enum8('unset' = 0, 'ok' = 1, 'error' = 2)";

export const migration0001: Migration = {
  version: 1,
  name: 'initial',
  statements: [
    // Raw spans (3 days). ORDER BY trace_id first: a trace read touches a few granules.
    // The sort key (trace_id, span_id) is the span identity, so merges collapse replays;
    // reads still dedupe with `LIMIT 1 BY span_id`. attrs/resource: JSON [[key, value], ...];
    // events: JSON [{"ts_ns": "<decimal>", "name": ..., "attrs": [...]}, ...].
    `CREATE TABLE IF NOT EXISTS spans (
      trace_id String CODEC(ZSTD(1)),
      span_id String CODEC(ZSTD(1)),
      parent_span_id String CODEC(ZSTD(1)),
      service_name LowCardinality(String),
      name String CODEC(ZSTD(1)),
      kind ${SPAN_KIND},
      status ${SPAN_STATUS},
      status_message String CODEC(ZSTD(1)),
      start_ns Int64,
      end_ns Int64,
      duration_ns Int64 MATERIALIZED end_ns - start_ns,
      attrs String CODEC(ZSTD(3)),
      resource String CODEC(ZSTD(3)),
      events String CODEC(ZSTD(3)),
      scope_name LowCardinality(String),
      scope_version LowCardinality(String),
      INDEX idx_start_ns start_ns TYPE minmax GRANULARITY 1,
      INDEX idx_service service_name TYPE set(256) GRANULARITY 4
    ) ENGINE = ReplacingMergeTree
    PARTITION BY toDate(${nsTime('start_ns')})
    ORDER BY (trace_id, span_id)
    TTL ${nsTime('start_ns')} + INTERVAL 3 DAY
    SETTINGS ttl_only_drop_parts = 1`,

    // Spans per service and minute (3 days, as the spans it counts), so the service list
    // reads a few thousand rows instead of scanning spans. span_count counts replays twice;
    // it is only a presence signal.
    `CREATE TABLE IF NOT EXISTS span_services (
      minute DateTime,
      service_name LowCardinality(String),
      span_count UInt64
    ) ENGINE = SummingMergeTree
    PARTITION BY toDate(minute)
    ORDER BY (minute, service_name)
    TTL minute + INTERVAL 3 DAY`,

    `CREATE MATERIALIZED VIEW IF NOT EXISTS span_services_mv TO span_services AS
    SELECT toStartOfMinute(${nsTime('start_ns')}) AS minute, service_name, count() AS span_count
    FROM spans
    GROUP BY minute, service_name`,

    // Raw logs (3 days). ORDER BY (trace_id, ts_ns) for trace reads; log_id (a content hash)
    // ends the key so merges collapse replays; reads dedupe with `LIMIT 1 BY log_id`.
    // trace_id and span_id are '' for logs without trace context.
    `CREATE TABLE IF NOT EXISTS logs (
      log_id UInt64,
      ts_ns Int64,
      observed_ts_ns Int64,
      trace_id String CODEC(ZSTD(1)),
      span_id String CODEC(ZSTD(1)),
      service_name LowCardinality(String),
      severity_number UInt8,
      severity_text LowCardinality(String),
      body String CODEC(ZSTD(3)),
      attrs String CODEC(ZSTD(3)),
      resource String CODEC(ZSTD(3)),
      scope_name LowCardinality(String),
      scope_version LowCardinality(String),
      INDEX idx_ts_ns ts_ns TYPE minmax GRANULARITY 1,
      INDEX idx_service service_name TYPE set(256) GRANULARITY 4
    ) ENGINE = ReplacingMergeTree
    PARTITION BY toDate(${nsTime('ts_ns')})
    ORDER BY (trace_id, ts_ns, log_id)
    TTL ${nsTime('ts_ns')} + INTERVAL 3 DAY
    SETTINGS ttl_only_drop_parts = 1`,

    // One row per analysed trace piece (2 days), for /traces/search. ts_ns/duration_ns are the
    // root span's; services lists every service with a span in the trace (for touched=1).
    // story_kind is 'error', 'slow' or '' (no story; then the story id is null in the API).
    // A trace closed in pieces has several rows: search keeps the one with most spans
    // (`ORDER BY span_count DESC LIMIT 1 BY trace_id`); identical replays also merge away.
    `CREATE TABLE IF NOT EXISTS trace_summaries (
      trace_id String CODEC(ZSTD(1)),
      ts_ns Int64,
      duration_ns Int64,
      endpoint_service LowCardinality(String),
      endpoint_name String CODEC(ZSTD(1)),
      is_error Bool,
      span_count UInt32,
      services Array(LowCardinality(String)),
      story_kind LowCardinality(String),
      INDEX idx_trace_id trace_id TYPE bloom_filter(0.01) GRANULARITY 1,
      INDEX idx_endpoint_service endpoint_service TYPE set(256) GRANULARITY 4
    ) ENGINE = ReplacingMergeTree(span_count)
    PARTITION BY toDate(${nsTime('ts_ns')})
    ORDER BY (ts_ns, trace_id)
    TTL ${nsTime('ts_ns')} + INTERVAL 2 DAY
    SETTINGS ttl_only_drop_parts = 1`,

    // Stories (7 days). story_id is the trace id; a replayed trace writes a newer version
    // (written_at_ms) that wins: reads take `ORDER BY written_at_ms DESC LIMIT 1 BY story_id`.
    // Sorted by fingerprint for group-by over 7 days. story: the full story JSON (API shape).
    `CREATE TABLE IF NOT EXISTS stories (
      story_id String CODEC(ZSTD(1)),
      fingerprint UInt64,
      kind Enum8('error' = 1, 'slow' = 2),
      ts_ns Int64,
      duration_ns Int64,
      endpoint_service LowCardinality(String),
      endpoint_name String CODEC(ZSTD(1)),
      rc_service LowCardinality(String),
      rc_span_name String CODEC(ZSTD(1)),
      summary String CODEC(ZSTD(1)),
      story String CODEC(ZSTD(3)),
      written_at_ms Int64,
      INDEX idx_story_id story_id TYPE bloom_filter(0.01) GRANULARITY 1,
      INDEX idx_ts_ns ts_ns TYPE minmax GRANULARITY 1
    ) ENGINE = ReplacingMergeTree(written_at_ms)
    PARTITION BY toDate(${nsTime('ts_ns')})
    ORDER BY (fingerprint, ts_ns, story_id)
    TTL ${nsTime('ts_ns')} + INTERVAL 7 DAY`,

    // Service-to-service calls per minute (7 days): parent service called child service.
    // SummingMergeTree adds calls, errors and duration_ns_sum of rows with the same key;
    // reads still sum() because merges are eventual.
    `CREATE TABLE IF NOT EXISTS service_edges (
      minute DateTime,
      parent LowCardinality(String),
      child LowCardinality(String),
      calls UInt64,
      errors UInt64,
      duration_ns_sum UInt64
    ) ENGINE = SummingMergeTree
    PARTITION BY toDate(minute)
    ORDER BY (minute, parent, child)
    TTL minute + INTERVAL 7 DAY`,

    // Mined log templates (30 days after last seen). The logminer rewrites a template's row;
    // the newest updated_at_ms wins (`argMax` or `LIMIT 1 BY template_id`). count is the
    // approximate total since creation; max_severity a severity number; masking_version the
    // masking that produced the template.
    `CREATE TABLE IF NOT EXISTS templates (
      template_id UInt64,
      service LowCardinality(String),
      template String CODEC(ZSTD(1)),
      count UInt64,
      first_seen_ns Int64,
      last_seen_ns Int64,
      max_severity UInt8,
      sample String CODEC(ZSTD(3)),
      masking_version UInt32,
      updated_at_ms Int64
    ) ENGINE = ReplacingMergeTree(updated_at_ms)
    ORDER BY (service, template_id)
    TTL ${nsTime('last_seen_ns')} + INTERVAL 30 DAY`,

    // One row per mined log line (3 days): the hit series of a template and the templates of a
    // trace. log_id ends the key, so replays merge away; reads dedupe by log_id.
    `CREATE TABLE IF NOT EXISTS template_hits (
      ts_ns Int64,
      template_id UInt64,
      service LowCardinality(String),
      log_id UInt64,
      trace_id String CODEC(ZSTD(1)),
      span_id String CODEC(ZSTD(1)),
      severity_number UInt8,
      INDEX idx_trace_id trace_id TYPE bloom_filter(0.01) GRANULARITY 1
    ) ENGINE = ReplacingMergeTree
    PARTITION BY toDate(${nsTime('ts_ns')})
    ORDER BY (service, template_id, ts_ns, log_id)
    TTL ${nsTime('ts_ns')} + INTERVAL 3 DAY
    SETTINGS ttl_only_drop_parts = 1`,

    // Log alerts (7 days after last seen), in the contract's Log alert shape plus published
    // (sent to the alerts topic). An alert is rewritten as it lasts; the newest updated_at_ms
    // wins. baseline_day/baseline_week are NULL except on seasonal alerts.
    `CREATE TABLE IF NOT EXISTS log_alerts (
      alert_id String,
      kind Enum8('new' = 1, 'spike' = 2, 'silence' = 3),
      template_id UInt64,
      service LowCardinality(String),
      template String CODEC(ZSTD(1)),
      started_at_ns Int64,
      last_at_ns Int64,
      window_count UInt64,
      peak_count UInt64,
      baseline_per_window Float64,
      baseline_day Nullable(Float64),
      baseline_week Nullable(Float64),
      example_trace_ids Array(String),
      published Bool,
      updated_at_ms Int64
    ) ENGINE = ReplacingMergeTree(updated_at_ms)
    PARTITION BY toYYYYMM(${nsTime('started_at_ns')})
    ORDER BY alert_id
    TTL ${nsTime('last_at_ns')} + INTERVAL 7 DAY`,

    // Silence settings from the API (no lifetime): the newest updated_at_ms per template wins.
    `CREATE TABLE IF NOT EXISTS silence_settings (
      template_id UInt64,
      enabled Bool,
      minutes UInt16,
      updated_at_ms Int64
    ) ENGINE = ReplacingMergeTree(updated_at_ms)
    ORDER BY template_id`,

    // Metric samples recorded by the API from every component (7 days). labels holds every
    // label but the metric name; instance is the scraped URL's host:port.
    `CREATE TABLE IF NOT EXISTS metric_samples (
      ts_ms Int64,
      job LowCardinality(String),
      instance LowCardinality(String),
      metric LowCardinality(String),
      labels Map(LowCardinality(String), String),
      value Float64
    ) ENGINE = MergeTree
    PARTITION BY toDate(${msTime('ts_ms')})
    ORDER BY (metric, job, ts_ms)
    TTL ${msTime('ts_ms')} + INTERVAL 7 DAY
    SETTINGS ttl_only_drop_parts = 1`,

    // Delivery state per alert and target (30 days): target is the target's name, never its
    // URL; result is 'delivered', 'failed', 'stale' (or 'pending' while attempts go on).
    // The newest updated_at_ms wins.
    `CREATE TABLE IF NOT EXISTS notifier_deliveries (
      alert_id String,
      target LowCardinality(String),
      result LowCardinality(String),
      attempts UInt32,
      updated_at_ms Int64
    ) ENGINE = ReplacingMergeTree(updated_at_ms)
    ORDER BY (alert_id, target)
    TTL ${msTime('updated_at_ms')} + INTERVAL 30 DAY`,

    // Logminer state (no lifetime): the masking version in force and when its epoch started.
    // The empty sort key makes it a single logical row; the newest updated_at_ms wins.
    `CREATE TABLE IF NOT EXISTS logminer_state (
      masking_version UInt32,
      epoch_start_ms Int64,
      updated_at_ms Int64
    ) ENGINE = ReplacingMergeTree(updated_at_ms)
    ORDER BY tuple()`,
  ],
};
