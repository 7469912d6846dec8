/**
 * trace_spans: every span once more, packed for trace-by-id reads (svc's trace route, Jaeger's
 * and API v3's by-id routes). A read of the spans table pays per column it reads (each is its own
 * compressed file to seek and decompress, ~0.3 ms per column on chDB) and its granules of 8192
 * rows hold hundreds of traces; here a span is one String and a granule holds 256 rows, so a
 * 20-span trace is one seek into one small block. Compressed blocks of 4 to 16 KiB (not 64 KiB to
 * 1 MiB): each part the lookup touches decompresses one, measured 2.55 -> 2.35 ms per 20-span read
 * on 1M spans for +17% of this table's bytes.
 * packed: JSON [span_id, parent_span_id, service_name, name, kind, status, status_message,
 * "start_ns", "end_ns", attrs, resource, events, scope_name, scope_version, links|null] where
 * attrs, resource, events and links are the spans table's JSON texts as stored (see ../attrs-json.ts)
 * and the times are exact decimal strings.
 * Filled by trace_spans_mv from every insert into spans; spans stored before this migration are
 * copied once. Lifetime, partitions and TTL are the spans table's, so both drop the same days;
 * ReplacingMergeTree over the span identity collapses replays as spans does (reads still dedupe).
 */

import type { Migration } from './migration.js';

const nsTime = (column: string): string => `toDateTime(intDiv(${column}, 1000000000))`;

/** The packed JSON of one spans row (the columns named as in spans). */
const PACKED = `concat('[', toJSONString(span_id), ',', toJSONString(parent_span_id), ',', toJSONString(toString(service_name)), ',',
  toJSONString(name), ',"', toString(kind), '","', toString(status), '",', toJSONString(status_message), ',"',
  toString(start_ns), '","', toString(end_ns), '",', if(attrs = '', '[]', attrs), ',', if(resource = '', '[]', resource), ',',
  if(events = '', '[]', events), ',', toJSONString(toString(scope_name)), ',', toJSONString(toString(scope_version)), ',',
  if(links = '', 'null', links), ']')`;

const SELECT_PACKED = `SELECT trace_id, span_id, start_ns, ${PACKED} AS packed FROM spans`;

export const migration0011: Migration = {
  version: 11,
  name: 'trace-spans',
  statements: [
    `CREATE TABLE IF NOT EXISTS trace_spans (
      trace_id String CODEC(ZSTD(1)),
      span_id String CODEC(ZSTD(1)),
      start_ns Int64,
      packed String CODEC(ZSTD(3))
    ) ENGINE = ReplacingMergeTree
    PARTITION BY toDate(${nsTime('start_ns')})
    ORDER BY (trace_id, span_id)
    TTL ${nsTime('start_ns')} + INTERVAL 3 DAY
    SETTINGS ttl_only_drop_parts = 1, index_granularity = 256, min_compress_block_size = 4096, max_compress_block_size = 16384`,
    `CREATE MATERIALIZED VIEW IF NOT EXISTS trace_spans_mv TO trace_spans AS ${SELECT_PACKED}`,
    // Spans stored before this migration. A span inserted while it runs is written by the view
    // and copied too: the copies collapse in merges and reads dedupe, as for any replay.
    `INSERT INTO trace_spans (trace_id, span_id, start_ns, packed) ${SELECT_PACKED}`,
  ],
};
