/**
 * The logs table sorted by (service_name, ts_ns, log_id), with a bloom filter on trace_id, in place
 * of the order by trace id and migration 5's projection (a second, full copy of every log sorted by
 * service). The searches read a time window, mostly of one service; with the table itself in that
 * order they read only their key ranges without the copy, which had doubled the bytes stored and
 * the work of every insert and merge, and made a merge of large parts hold several times the
 * memory. A trace's logs, the one read the old order served, find their granules through the bloom
 * filter instead.
 * - The sort key still ends in log_id, and a log id hashes the service and the stamp with the rest
 *   of the log, so replays keep the same key: merges still collapse them.
 * - idx_service is left out: the sort key starts with the service, so the primary index narrows a
 *   service better than the set index did. The other indexes stay: ts_ns's minmax narrows a window
 *   of every service (time is only second in the key), idx_log_id serves the template filter,
 *   idx_severity minimum-severity searches, the n-gram and text indexes the words.
 * - The sort key of a table cannot change in place: a new table is filled from the old one
 *   partition by partition (each insert holds one partition's blocks, not the table), swapped in with
 *   EXCHANGE TABLES and the old one dropped. Each step checks the state it finds, so a run stopped at
 *   any point completes on the next one; rows stored twice by a repeated copy are replays to the
 *   engine, merged away and never read twice.
 * - The text index over body words (migration 8) is optional as there: a server without text
 *   indexes gets the table without it.
 */

import type { Store } from '../../model/store.js';
import type { Migration, MigrationContext } from './migration.js';

/** The new table while it is filled, then (after the swap) the old one until it is dropped. */
export const LOGS_REBUILT = 'logs_v13';
/** The sort key the logs table has once migrated, as system.tables spells it. */
export const LOGS_SORTING_KEY = 'service_name, ts_ns, log_id';

/** The logs table in its new order; every column, codec, lifetime and setting as before. */
export const createLogsTable = (name: string): string => `CREATE TABLE IF NOT EXISTS ${name} (
  log_id UInt64,
  ts_ns Int64 CODEC(Delta, LZ4),
  observed_ts_ns Int64 CODEC(Delta, LZ4),
  trace_id String CODEC(ZSTD(1)),
  span_id String CODEC(ZSTD(1)),
  service_name LowCardinality(String),
  severity_number UInt8,
  severity_text LowCardinality(String),
  body String CODEC(LZ4),
  attrs String CODEC(ZSTD(3)),
  resource String CODEC(ZSTD(3)),
  scope_name LowCardinality(String),
  scope_version LowCardinality(String),
  INDEX idx_ts_ns ts_ns TYPE minmax GRANULARITY 1,
  INDEX idx_trace_id trace_id TYPE bloom_filter(0.01) GRANULARITY 1,
  INDEX idx_log_id log_id TYPE bloom_filter(0.01) GRANULARITY 1,
  INDEX idx_severity severity_number TYPE minmax GRANULARITY 1,
  INDEX idx_body_ngram_g4 lowerUTF8(body) TYPE ngrambf_v1(3, 65536, 2, 0) GRANULARITY 4
) ENGINE = ReplacingMergeTree
PARTITION BY toDate(toDateTime(intDiv(ts_ns, 1000000000)))
ORDER BY (${LOGS_SORTING_KEY})
TTL toDateTime(intDiv(ts_ns, 1000000000)) + INTERVAL 3 DAY
SETTINGS ttl_only_drop_parts = 1, max_compress_block_size = 65536`;

/** Migration 8's text index, on the named table. */
export const addBodyWords = (name: string): string =>
  `ALTER TABLE ${name} ADD INDEX IF NOT EXISTS idx_body_words translate(lower(body), '0123456789', '          ') TYPE text(tokenizer = 'splitByNonAlpha')`;

/** The sort key of a table of this database; null when there is no such table. */
async function sortingKey(store: Store, table: string): Promise<string | null> {
  const rows = await store.query<{ key: string }>('SELECT sorting_key AS key FROM system.tables WHERE database = currentDatabase() AND name = {table:String}', {
    table,
  });
  return rows[0]?.key ?? null;
}

/**
 * The copy's insert forms parts of at most COPY_BLOCK_ROWS rows (the engine's default is ~1M rows or
 * 256 MiB per block, each sorted and indexed in memory) from one reading thread, so the engine holds
 * about one such block at a time; merges join the parts afterwards.
 */
const COPY_BLOCK_ROWS = 262_144;
const COPY_SETTINGS = `max_threads = 1, max_insert_threads = 1, min_insert_block_size_rows = ${COPY_BLOCK_ROWS}, min_insert_block_size_bytes = 67108864`;

/** A partition: its id, rows and the highest block number of its active parts. */
interface Partition {
  id: string;
  rows: number;
  maxBlock: bigint;
}

/** Active partitions of a table, oldest first. */
async function partitions(store: Store, table: string): Promise<Partition[]> {
  const rows = await store.query<{ id: string; n: string | number; max_block: string | number }>(
    `SELECT partition_id AS id, sum(rows) AS n, max(max_block_number) AS max_block FROM system.parts
     WHERE database = currentDatabase() AND table = {table:String} AND active
     GROUP BY partition_id ORDER BY partition_id`,
    { table },
  );
  return rows.map((r) => ({ id: r.id, rows: Number(r.n), maxBlock: BigInt(r.max_block) }));
}

/**
 * Copies every partition of `from` into `to`, one insert each, and reports each. With `replace`, a
 * partition `to` already holds (from a copy stopped before) is dropped first. With `copiedBlocks`
 * (the highest block number copied before, per partition), only rows of parts holding a later
 * block are copied. Returns the highest block number of each partition as listed before its copy:
 * any later insert takes a higher one, and so do the parts merged from it.
 */
async function copyPartitions(
  store: Store,
  context: MigrationContext,
  from: string,
  to: string,
  options: { replace: boolean; copiedBlocks?: ReadonlyMap<string, bigint> },
): Promise<Map<string, bigint>> {
  const found = await partitions(store, from);
  const total = found.reduce((sum, p) => sum + p.rows, 0);
  const listedBlocks = new Map<string, bigint>();
  let done = 0;
  for (const [i, partition] of found.entries()) {
    const startedMs = Date.now();
    listedBlocks.set(partition.id, partition.maxBlock);
    const copiedBlock = options.copiedBlocks?.get(partition.id);
    if (copiedBlock !== undefined && partition.maxBlock <= copiedBlock) continue;
    if (options.replace) await store.exec(`ALTER TABLE ${to} DROP PARTITION ID {id:String}`, { id: partition.id });
    // A part's name is <partition>_<min block>_<max block>_<level>[_<mutation>].
    const later = copiedBlock === undefined ? '' : " AND toUInt64(splitByChar('_', _part)[3]) > {copied_block:UInt64}";
    await store.exec(`INSERT INTO ${to} SELECT * FROM ${from} WHERE _partition_id = {id:String}${later} SETTINGS ${COPY_SETTINGS}`, {
      id: partition.id,
      ...(copiedBlock === undefined ? {} : { copied_block: copiedBlock }),
    });
    done += partition.rows;
    context.progress('logs table: partition copied to the new sort order', {
      partition: partition.id,
      partitionRows: partition.rows,
      partitionMs: Date.now() - startedMs,
      partitionsDone: i + 1,
      partitions: found.length,
      rowsDone: done,
      rows: total,
    });
  }
  return listedBlocks;
}

async function rebuildLogs(store: Store, context: MigrationContext): Promise<void> {
  let copiedBlocks: Map<string, bigint> | undefined;
  if ((await sortingKey(store, 'logs')) !== LOGS_SORTING_KEY) {
    await store.exec(createLogsTable(LOGS_REBUILT));
    await context.optional(addBodyWords(LOGS_REBUILT));
    // A copy stopped before may have left partitions half filled: each is replaced, not added to.
    copiedBlocks = await copyPartitions(store, context, 'logs', LOGS_REBUILT, { replace: true });
    await store.exec(`EXCHANGE TABLES logs AND ${LOGS_REBUILT}`);
  }
  // LOGS_REBUILT is now the old table, or a new one left empty by a run stopped after the drop.
  const left = await sortingKey(store, LOGS_REBUILT);
  if (left !== null && left !== LOGS_SORTING_KEY) {
    // Rows another process wrote to the old table during the copy; or, when a run stopped right
    // after the swap, all of them again: stored twice, they are replays to the engine.
    await copyPartitions(store, context, LOGS_REBUILT, 'logs', { replace: false, copiedBlocks: copiedBlocks ?? new Map() });
  }
  await store.exec(`DROP TABLE IF EXISTS ${LOGS_REBUILT} SYNC`);
}

export const migration0013: Migration = {
  version: 13,
  name: 'logs-by-service',
  statements: [],
  run: rebuildLogs,
};
