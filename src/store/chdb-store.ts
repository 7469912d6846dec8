/**
 * Embedded driver: ClickHouse in-process through chDB, on `embedded.data_dir`.
 *
 * Measured with chdb 3.4 (libchdb 26.7) on this machine:
 * - Operations on one chDB connection run one at a time: an insert issued while a 5 s read runs
 *   on the same connection waits for the read. Two connections on the same data directory run
 *   in parallel (the same insert returns in ~60 ms). So the store opens two Sessions on the one
 *   directory: `reader` for SELECTs, `writer` for inserts and statements, and ingest never waits
 *   behind an API read.
 * - chdb serializes every parameterized async query process-wide (its own lock: libchdb's
 *   parameter state is not isolated per connection), so bound reads run one after another;
 *   queries without parameters and raw inserts do not take that lock.
 * - 200 mixed concurrent inserts, plain and bound queries on one connection gave no error and
 *   no crossed result, so callers need no extra lock for correctness.
 * - One data directory per process: a Session on a second directory is refused, and a second
 *   process on the same directory fails on the engine's file lock (`<dir>/status`).
 */

import { mkdirSync, rmSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Session } from 'chdb';
import { ConfigError } from '../config/config-error.js';
import type { InsertFormat, QueryOptions, QueryParams } from '../model/store.js';
import { reasonChain } from '../config/start-failure.js';
import { prepareDataDir } from './data-dir.js';
import { assertDataDirFree } from './data-dir-lock.js';
import { executionLimitSecs, toStorageError } from './errors.js';
import { assertIdentifier } from './identifiers.js';
import { parseJsonEachRow } from './json-rows.js';
import { hasParams, StoreDriver } from './store-driver.js';
import { markTopDirectories } from './spread-part-dirs.js';

// The engine's mark and index caches default to 5 GiB each and fill as data grows; embedded in a
// process meant to stay light, they are bounded (128 MiB each, plenty for 3 days of raw data).
// An insert's identical rows collapse as a merge would collapse them (the engine's default, stated
// here because log counts rely on one part never holding a replayed log twice).
const CACHE_BYTES = 128 * 1024 * 1024;
/** Engine arguments: 64-bit integers leave as JSON strings, so JS never rounds them; bounded caches. */
const CONNECTION_ARGS = [
  '--output_format_json_quote_64bit_integers=1',
  `--mark_cache_size=${CACHE_BYTES}`,
  `--primary_index_cache_size=${CACHE_BYTES}`,
  `--index_mark_cache_size=${CACHE_BYTES}`,
  '--optimize_on_insert=1',
];
/**
 * The writer connection runs inserts (and schema statements) on one thread each. An insert of a
 * 10k-row batch is one block: spreading its pipeline over the engine's query pool buys no speed on
 * a 2-core machine, and handing the block between threads costs a little CPU (the insert's work
 * moves to the calling thread; the pool's share, about 4-5 us per stored item, mostly goes away).
 * Reads keep every thread.
 */
const WRITER_ARGS = [...CONNECTION_ARGS, '--max_threads=1'];

/**
 * chdb's insert takes text formats only, and its raw entry passes a payload inline after the
 * statement, where a binary payload is not safe (rows holding two newline bytes in a row were cut
 * short). So a RowBinary payload is written to a file of its own under the data directory and
 * inserted `FROM INFILE`: the engine reads the bytes as they are. The file lives for one insert
 * (page cache, seldom the disk); leftovers of a crash are removed when the store opens.
 */
const ROW_FILES_DIR = 'insert-payloads';
/** Stores open in this process, by data directory: a second one on the same directory must not empty the first one's payload files. */
const openStores = new Map<string, number>();
let storeInstances = 0;

/** A ClickHouse string literal of a path (quotes and backslashes escaped). */
function sqlStringLiteral(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A failure to open the data directory, as one line naming the setting (the CLI prints it without a stack). */
function cannotOpen(dataDir: string, reason: string): ConfigError {
  return new ConfigError(`embedded.data_dir ${dataDir}: cannot open the embedded database: ${reason}`);
}

function openSession(dataDir: string, connectionArgs: readonly string[]): Session {
  try {
    return new Session(dataDir, { connectionArgs });
  } catch (err) {
    // The directory is writable and no other process holds it (both checked before), so the engine
    // refused it for a reason it has printed itself just above, e.g. a damaged metadata file; or
    // this process already has another data directory open.
    throw cannotOpen(
      dataDir,
      `${reasonChain(err)} (the engine's message above says why; one data directory per process, and several processes need a ClickHouse server, clickhouse.url)`,
    );
  }
}

/** Appends the per-query execution limit, thread bound and planner; callers' SQL must not carry its own SETTINGS clause. */
function withLimit(sql: string, limitSecs: number, options: QueryOptions | undefined): string {
  const settings = [
    ...(limitSecs > 0 ? [`max_execution_time = ${limitSecs}`] : []),
    ...(options?.singleThread === true ? ['max_threads = 1'] : []),
    ...(options?.quickPlan === true ? ['enable_analyzer = 0'] : []),
  ];
  return settings.length > 0 ? `${sql}\nSETTINGS ${settings.join(', ')}` : sql;
}

export class ChdbStore extends StoreDriver {
  private constructor(
    database: string,
    readonly dataDir: string,
    private readonly reader: Session,
    private readonly writer: Session,
  ) {
    super(database);
  }

  readonly bulkFormat = 'RowBinary';

  private rowFiles = 0;
  /** Names this store's payload files apart from another store's on the same directory. */
  private readonly instance = ++storeInstances;

  /** Opens (creating if missing) the data directory and the database, and selects it on both connections. */
  static async open(dataDir: string, database: string): Promise<ChdbStore> {
    assertIdentifier(database, 'clickhouse.database');
    const dir = resolve(dataDir);
    prepareDataDir(dir);
    assertDataDirFree(dir);
    // Payload files of inserts a crash interrupted are of no use: the bus delivers their rows again.
    if ((openStores.get(dir) ?? 0) === 0) rmSync(join(dir, ROW_FILES_DIR), { recursive: true, force: true });
    mkdirSync(join(dir, ROW_FILES_DIR), { recursive: true });
    const writer = openSession(dir, WRITER_ARGS);
    let reader: Session | undefined;
    try {
      reader = openSession(dir, CONNECTION_ARGS);
      await writer.queryAsync(`CREATE DATABASE IF NOT EXISTS ${database}`);
      // USE is connection state in chDB: each connection selects the database once, so every
      // statement names tables plainly and the same SQL runs on a server with `database` set.
      await writer.queryAsync(`USE ${database}`);
      await reader.queryAsync(`USE ${database}`);
    } catch (err) {
      reader?.close();
      writer.close();
      throw err instanceof ConfigError ? err : cannotOpen(dir, reasonChain(err));
    }
    openStores.set(dir, (openStores.get(dir) ?? 0) + 1);
    return new ChdbStore(database, dir, reader, writer);
  }

  async query<T = Record<string, unknown>>(sql: string, params?: QueryParams, options?: QueryOptions): Promise<T[]> {
    this.assertOpen();
    const text = withLimit(sql, executionLimitSecs(options?.timeoutSecs), options);
    const opts = { format: 'JSONEachRow', signal: options?.signal };
    try {
      const result = hasParams(params) ? await this.reader.queryBindAsync(text, params, opts) : await this.reader.queryAsync(text, opts);
      return parseJsonEachRow<T>(result.text());
    } catch (err) {
      throw toStorageError(err, 'query');
    }
  }

  async exec(sql: string, params?: QueryParams): Promise<void> {
    this.assertOpen();
    try {
      if (hasParams(params)) await this.writer.queryBindAsync(sql, params);
      else await this.writer.queryAsync(sql);
    } catch (err) {
      throw toStorageError(err, 'exec');
    }
  }

  /** Table directories already marked by this store (see spread-part-dirs.ts). */
  private readonly markedTableDirs = new Set<string>();

  /** Marks the directory of every MergeTree table of the database (views name their target's), so that its parts spread over the filesystem. */
  async prepareTables(): Promise<void> {
    const rows = await this.query<{ path: string }>(
      "SELECT DISTINCT arrayJoin(data_paths) AS path FROM system.tables WHERE database = currentDatabase() AND engine LIKE '%MergeTree'",
    );
    const dirs = rows.map((row) => row.path).filter((dir) => !this.markedTableDirs.has(dir));
    // Best effort: a filesystem without the attribute keeps the engine's own placement.
    if (await markTopDirectories(dirs)) for (const dir of dirs) this.markedTableDirs.add(dir);
  }

  protected async sendInsert(table: string, columns: readonly string[], payload: string | Buffer, format: InsertFormat): Promise<void> {
    if (format === 'JSONCompactEachRow') {
      await this.writer.insert({ table, columns, values: payload, format });
      return;
    }
    const file = join(this.dataDir, ROW_FILES_DIR, `${this.instance}-${++this.rowFiles}.rowbinary`);
    await writeFile(file, payload);
    try {
      // Table and columns were checked as plain identifiers by insertRaw; the path is ours.
      await this.writer.queryAsync(`INSERT INTO ${table} (${columns.join(', ')}) FROM INFILE ${sqlStringLiteral(file)} FORMAT ${format}`);
    } finally {
      await rm(file, { force: true });
    }
  }

  protected async release(): Promise<void> {
    openStores.set(this.dataDir, (openStores.get(this.dataDir) ?? 1) - 1);
    // Session.close defers the native teardown until running operations finish.
    this.reader.close();
    this.writer.close();
  }
}
