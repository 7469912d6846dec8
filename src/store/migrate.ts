/**
 * Schema creation and upgrade: applies the numbered migrations that schema_version does not
 * record yet, in order. Safe to run again, because every statement is idempotent (IF NOT EXISTS),
 * a migration's code checks the state it finds, and schema_version dedupes by version; the
 * statements alone are also safe from two processes at once (migration 13's rebuild of the logs
 * table is not: one process migrates a store at a time).
 */

import type { Store } from '../model/store.js';
import { engineErrorCode } from './errors.js';
import { MIGRATIONS } from './migrations/index.js';
import type { Migration } from './migrations/migration.js';

// schema_version: one row per applied migration; ReplacingMergeTree so a version recorded
// twice (two migrators racing) collapses.
const CREATE_SCHEMA_VERSION = `CREATE TABLE IF NOT EXISTS schema_version (
  version UInt32,
  name String,
  applied_at_ms Int64
) ENGINE = ReplacingMergeTree
ORDER BY version`;

/** Versions recorded in schema_version, ascending; none before the first migrate. */
export async function appliedVersions(store: Store): Promise<number[]> {
  const exists = await store.query<{ n: string }>("SELECT count() AS n FROM system.tables WHERE database = currentDatabase() AND name = 'schema_version'");
  if (Number(exists[0]?.n ?? 0) === 0) return [];
  const rows = await store.query<{ version: number }>('SELECT DISTINCT version FROM schema_version ORDER BY version');
  return rows.map((r) => Number(r.version));
}

/** An optional statement the server refused (see Migration.optionalStatements). */
export interface SkippedStatement {
  version: number;
  name: string;
  statement: string;
  /** The engine's error code. */
  code: number;
}

/** What svc says of a skipped statement (logged with the SkippedStatement's fields). */
export const SKIPPED_STATEMENT_MESSAGE = 'the ClickHouse server refused an optional schema statement (it needs a newer server); svc runs without what it adds';

/** A progress line of a long migration step, for the service's log. */
export interface MigrationProgress {
  version: number;
  name: string;
  message: string;
  fields: Record<string, unknown>;
}

/**
 * Creates or upgrades the schema; returns the versions applied by this call. An optional statement
 * the server refuses is given to `onSkipped`; any other failure (a required statement, or one that
 * never reached the server) stops the migration unrecorded, so the next run tries it again.
 */
export async function migrate(
  store: Store,
  migrations: readonly Migration[] = MIGRATIONS,
  nowMs = Date.now(),
  onSkipped: (skipped: SkippedStatement) => void = () => {},
  onProgress: (progress: MigrationProgress) => void = () => {},
): Promise<number[]> {
  await store.exec(CREATE_SCHEMA_VERSION);
  const done = new Set(await appliedVersions(store));
  const applied: number[] = [];
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (done.has(migration.version)) continue;
    const optional = async (statement: string): Promise<void> => {
      try {
        await store.exec(statement);
      } catch (err) {
        const code = engineErrorCode(err);
        if (code === undefined) throw err;
        onSkipped({ version: migration.version, name: migration.name, statement, code });
      }
    };
    for (const statement of migration.statements) await store.exec(statement);
    for (const statement of migration.optionalStatements ?? []) await optional(statement);
    await migration.run?.(store, {
      optional,
      progress: (message, fields) => onProgress({ version: migration.version, name: migration.name, message, fields }),
    });
    await store.insert('schema_version', ['version', 'name', 'applied_at_ms'], [[migration.version, migration.name, nowMs]]);
    applied.push(migration.version);
  }
  await store.prepareTables?.();
  return applied;
}
