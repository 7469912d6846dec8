import { loadSettings } from '../config/load.js';
import { createStore } from '../store/create-store.js';
import { migrate } from '../store/migrate.js';
import { createLogger } from '../util/log.js';

/** `svc writer migrate`: creates or upgrades the schema (server at clickhouse.url, else the embedded data dir) and exits. */
export async function runMigrate(env: NodeJS.ProcessEnv): Promise<number> {
  const settings = loadSettings('tool', env);
  const logger = createLogger(settings.log_filter);
  const store = await createStore(settings);
  try {
    const applied = await migrate(store);
    logger.info({ database: store.database, applied }, applied.length === 0 ? 'schema already current' : 'schema migrated');
  } finally {
    await store.close();
  }
  return 0;
}
