import { resolve } from 'node:path';
import type { ClickHouseSettings, EmbeddedSettings } from '../config/settings.js';
import { loadSettings } from '../config/load.js';
import { createStore } from '../store/create-store.js';
import { migrate, SKIPPED_STATEMENT_MESSAGE, type MigrationProgress, type SkippedStatement } from '../store/migrate.js';
import { createLogger, type Logger } from '../util/log.js';

/** Logs an optional schema statement the ClickHouse server refused (see Migration.optionalStatements). */
export function warnSkippedStatement(logger: Logger): (skipped: SkippedStatement) => void {
  return (skipped) => logger.warn(skipped, SKIPPED_STATEMENT_MESSAGE);
}

/** Logs a progress line of a long migration step (a copy of stored rows). */
export function logMigrationProgress(logger: Logger): (progress: MigrationProgress) => void {
  return (progress) => logger.info({ version: progress.version, migration: progress.name, ...progress.fields }, progress.message);
}

/**
 * Which store a migration went to, as the log line says it: without clickhouse.url the command
 * migrates the embedded engine's directory, which an operator who meant a server must notice. The
 * server is named by host only (the URL may carry a token in its query).
 */
export function migratedStore(settings: { clickhouse: ClickHouseSettings; embedded: Pick<EmbeddedSettings, 'data_dir'> }): string {
  if (settings.clickhouse.url === '') return `the embedded database at ${resolve(settings.embedded.data_dir)} (embedded.data_dir; clickhouse.url is not set)`;
  return `database ${settings.clickhouse.database} on the ClickHouse server ${new URL(settings.clickhouse.url).host}`;
}

/** `svc writer migrate`: creates or upgrades the schema (server at clickhouse.url, else the embedded data dir) and exits. */
export async function runMigrate(env: NodeJS.ProcessEnv): Promise<number> {
  const settings = loadSettings('tool', env);
  const logger = createLogger(settings.log_filter);
  const store = await createStore(settings);
  try {
    const applied = await migrate(store, undefined, undefined, warnSkippedStatement(logger), logMigrationProgress(logger));
    const where = migratedStore(settings);
    logger.info({ database: store.database, applied }, `${applied.length === 0 ? 'schema already current' : 'schema migrated'} in ${where}`);
  } finally {
    await store.close();
  }
  return 0;
}
