/**
 * What the two drivers (embedded chDB, a ClickHouse server over HTTP) share around their engine
 * calls: the closed state, the identifier checks and the insert path. A driver only says how its
 * engine runs a statement and takes an insert's payload (JSONCompactEachRow or RowBinary).
 */
import { StorageError, type InsertFormat, type QueryOptions, type QueryParams, type Store } from '../model/store.js';
import { compactJsonRows } from './compact-json.js';
import { toStorageError } from './errors.js';
import { assertIdentifier } from './identifiers.js';

export function hasParams(params: QueryParams | undefined): params is QueryParams {
  return params !== undefined && Object.keys(params).length > 0;
}

export abstract class StoreDriver implements Store {
  private closed = false;

  protected constructor(readonly database: string) {}

  abstract query<T = Record<string, unknown>>(sql: string, params?: QueryParams, options?: QueryOptions): Promise<T[]>;

  abstract exec(sql: string, params?: QueryParams): Promise<void>;

  async insert(table: string, columns: readonly string[], rows: readonly (readonly unknown[])[]): Promise<void> {
    if (rows.length === 0) return;
    await this.insertRaw(table, columns, compactJsonRows(rows));
  }

  async insertRaw(table: string, columns: readonly string[], payload: string | Buffer, format: InsertFormat = 'JSONCompactEachRow'): Promise<void> {
    this.assertOpen();
    // Table and column names go into the statement text: only plain identifiers pass.
    assertIdentifier(table, 'table');
    for (const c of columns) assertIdentifier(c, 'column');
    if (payload.length === 0) return;
    try {
      await this.sendInsert(table, columns, payload, format);
    } catch (err) {
      throw toStorageError(err, 'insert');
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.release();
  }

  /** Hands a checked, non-empty payload to the engine; resolves once it has stored it. */
  protected abstract sendInsert(table: string, columns: readonly string[], payload: string | Buffer, format: InsertFormat): Promise<void>;

  /** Frees the engine's connections (called once). */
  protected abstract release(): Promise<void>;

  protected assertOpen(): void {
    if (this.closed) throw new StorageError('store is closed');
  }
}
