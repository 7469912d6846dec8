/**
 * Storage: every query goes through this interface so that embedded chDB and a ClickHouse server
 * share each statement. Values are always bound as ClickHouse query parameters (`{name:Type}`).
 */

export type QueryParams = Record<string, string | number | boolean | bigint | null | ReadonlyArray<string | number | bigint>>;

/** The formats of a raw insert's payload. */
export type InsertFormat = 'JSONCompactEachRow' | 'RowBinary';

export interface Store {
  /** Runs a SELECT and returns its rows as objects (64-bit integers arrive as decimal strings). */
  query<T = Record<string, unknown>>(sql: string, params?: QueryParams, options?: QueryOptions): Promise<T[]>;
  /** Runs a statement that returns no rows (DDL, ALTER, INSERT ... SELECT). */
  exec(sql: string, params?: QueryParams): Promise<void>;
  /** Inserts positional rows into `table` (columns named in order) as JSONCompactEachRow. */
  insert(table: string, columns: readonly string[], rows: readonly (readonly unknown[])[]): Promise<void>;
  /**
   * Inserts a ready-made payload, columns in order: JSONCompactEachRow text (one JSON array per
   * line, the default) or RowBinary (each value in its column's binary form, the raw spans and
   * logs, where the engine's parsing of text cost the most): the bulk path, so hot writers build one
   * string or Buffer instead of an array per row.
   */
  insertRaw(table: string, columns: readonly string[], payload: string | Buffer, format?: InsertFormat): Promise<void>;
  /**
   * The format bulk writers (raw spans and logs) should give insertRaw: RowBinary for the embedded
   * engine; JSONCompactEachRow when absent (a ClickHouse server over HTTP: it takes RowBinary too,
   * but the one HTTP transport the tests can run, chdb's in-process one, passes bodies as text).
   */
  readonly bulkFormat?: InsertFormat;
  /** The database name, already validated as an identifier. */
  readonly database: string;
  /**
   * Called by migrate once the schema is current (every start, so upgraded data directories get it
   * too): the embedded driver arranges where its tables' files go (../store/spread-part-dirs.ts).
   * Absent for a ClickHouse server, which keeps its own files.
   */
  prepareTables?(): Promise<void>;
  close(): Promise<void>;
}

export interface QueryOptions {
  /**
   * Database-side execution limit (max_execution_time); 0 or absent means none. Passing it
   * raises StorageTimeoutError. With a limit the statement must not carry its own trailing
   * SETTINGS clause (the embedded driver appends one).
   */
  timeoutSecs?: number;
  signal?: AbortSignal;
  /**
   * A read of a few granules (a trace by id): run it in one engine thread (max_threads = 1). The
   * thread pool's hand-offs cost such a read more than they save (~0.2 of ~2 ms on chDB).
   */
  singleThread?: boolean;
  /**
   * Plan with the engine's older query planner (enable_analyzer = 0), which plans a one-key read
   * (a trace by id) faster: ~0.1 of ~1.8 ms per read measured on chDB (median; more at p95). Only
   * where measured faster: a read of 20 traces by an IN list gained nothing. The embedded engine
   * alone honours it (a ClickHouse server's name for the setting depends on its version).
   */
  quickPlan?: boolean;
}

/** The store failed; the API answers 503 storage unavailable. */
export class StorageError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageError';
  }
}

/** A read passed its time limit; the API answers 504 storage timeout. */
export class StorageTimeoutError extends StorageError {
  constructor(message = 'storage timeout', options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StorageTimeoutError';
  }
}
