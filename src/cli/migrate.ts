import { loadSettings } from '../config/load.js';
import { createStore } from '../store/create-store.js';
import { migrate, SKIPPED_STATEMENT_MESSAGE, type SkippedStatement } from '../store/migrate.js';
import { createLogger, type Logger } from '../util/log.js';

/** Logs an optional schema statement the ClickHouse server refused (see Migration.optionalStatements). */
export function warnSkippedStatement(logger: Logger): (skipped: SkippedStatement) => void {
  return (skipped) => logger.warn(skipped, SKIPPED_STATEMENT_MESSAGE);
}

/** `svc writer migrate`: creates or upgrades the schema (server at clickhouse.url, else the embedded data dir) and exits. */
export async function runMigrate(env: NodeJS.ProcessEnv): Promise<number> {
  const settings = loadSettings('tool', env);
  const logger = createLogger(settings.log_filter);
  const store = await createStore(settings);
  try {
    const applied = await migrate(store, undefined, undefined, warnSkippedStatement(logger));
    logger.info({ database: store.database, applied }, applied.length === 0 ? 'schema already current' : 'schema migrated');
  } finally {
    await store.close();
  }
  return 0;
}
