/**
 * Server driver: a ClickHouse server over HTTP with `@clickhouse/client`, as the default
 * passwordless user. Every statement is the one the embedded driver runs.
 */

import { Readable } from 'node:stream';
import { ClickHouseLogLevel, createClient, type ClickHouseClient, type ClickHouseClientConfigOptions } from '@clickhouse/client';
import { StorageError, type InsertFormat, type QueryOptions, type QueryParams } from '../model/store.js';
import { executionLimitSecs, toStorageError } from './errors.js';
import { assertIdentifier } from './identifiers.js';
import { hasParams, StoreDriver } from './store-driver.js';

/** HTTP request limit; database execution limits are set per query with max_execution_time. */
const REQUEST_TIMEOUT_MS = 300_000;

/** The client's own logger is off: every failure reaches the caller as a StorageError with its cause. */
const LOG = { level: ClickHouseLogLevel.OFF };

/** Settings on every request: 64-bit integers as JSON strings, so JS never rounds them. */
const BASE_SETTINGS = { output_format_json_quote_64bit_integers: 1 } as const;
const INSERT_SETTINGS = { ...BASE_SETTINGS, optimize_on_insert: 1 } as const;

export class HttpStore extends StoreDriver {
  private constructor(
    database: string,
    private readonly client: ClickHouseClient,
  ) {
    super(database);
  }

  /**
   * Connects to `url`, creates `database` when missing and binds every later request to it.
   * `connection` replaces the HTTP transport (the client's experimental hook; the tests plug in
   * chDB's in-process connection to run this driver's code against a real engine).
   */
  static async open(url: string, database: string, connection?: () => ClickHouseClientConfigOptions['connection']): Promise<HttpStore> {
    assertIdentifier(database, 'clickhouse.database');
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch (err) {
      throw new StorageError('clickhouse.url is not a valid URL', { cause: err });
    }
    if (parsed.username || parsed.password) {
      throw new StorageError('clickhouse.url must not contain credentials');
    }
    // A request naming a missing database fails, so the database is created from `default` first.
    const bootstrap = createClient({ url, request_timeout: REQUEST_TIMEOUT_MS, log: LOG, connection: connection?.() });
    try {
      await bootstrap.command({ query: `CREATE DATABASE IF NOT EXISTS ${database}` });
    } catch (err) {
      throw toStorageError(err, 'exec');
    } finally {
      await bootstrap.close();
    }
    const client = createClient({
      url,
      database,
      request_timeout: REQUEST_TIMEOUT_MS,
      log: LOG,
      connection: connection?.(),
      clickhouse_settings: BASE_SETTINGS,
    });
    return new HttpStore(database, client);
  }

  async query<T = Record<string, unknown>>(sql: string, params?: QueryParams, options?: QueryOptions): Promise<T[]> {
    this.assertOpen();
    const limitSecs = executionLimitSecs(options?.timeoutSecs);
    try {
      const result = await this.client.query({
        query: sql,
        format: 'JSONEachRow',
        query_params: hasParams(params) ? params : undefined,
        clickhouse_settings:
          limitSecs > 0 || options?.singleThread === true
            ? { ...BASE_SETTINGS, ...(limitSecs > 0 ? { max_execution_time: limitSecs } : {}), ...(options?.singleThread === true ? { max_threads: 1 } : {}) }
            : undefined,
        abort_signal: options?.signal,
      });
      return await result.json<T>();
    } catch (err) {
      throw toStorageError(err, 'query');
    }
  }

  async exec(sql: string, params?: QueryParams): Promise<void> {
    this.assertOpen();
    try {
      await this.client.command({ query: sql, query_params: hasParams(params) ? params : undefined });
    } catch (err) {
      throw toStorageError(err, 'exec');
    }
  }

  protected async sendInsert(table: string, columns: readonly string[], payload: string | Buffer, format: InsertFormat): Promise<void> {
    const columnList = columns.length > 0 ? ` (${columns.join(', ')})` : '';
    const result = await this.client.exec({
      query: `INSERT INTO ${table}${columnList} FORMAT ${format}`,
      // A block's identical rows collapse as a merge would collapse them, whatever the server's
      // profile says: log counts rely on one part never holding a replayed log twice.
      clickhouse_settings: INSERT_SETTINGS,
      values: Readable.from([Buffer.isBuffer(payload) ? payload : Buffer.from(payload)]),
    });
    // The response body must be consumed or the keep-alive socket is never released.
    result.stream.resume();
    await new Promise<void>((done, fail) => {
      result.stream.once('end', done);
      result.stream.once('error', fail);
    });
  }

  protected async release(): Promise<void> {
    await this.client.close();
  }
}
