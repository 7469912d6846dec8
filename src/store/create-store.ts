/** Chooses the storage driver from settings: a ClickHouse server when its URL is set, else embedded chDB. */

import type { ClickHouseSettings, EmbeddedSettings } from '../config/settings.js';
import type { Store } from '../model/store.js';
import { ConfigError } from '../config/config-error.js';
import { namingSetting } from '../config/start-failure.js';
import { HttpStore } from './http-store.js';

/** Opens the store: HTTP when `clickhouse.url` is set, otherwise chDB on `embedded.data_dir`. */
export async function createStore(settings: { clickhouse: ClickHouseSettings; embedded: Pick<EmbeddedSettings, 'data_dir'> }): Promise<Store> {
  const { clickhouse, embedded } = settings;
  if (clickhouse.url !== '') {
    // The URL is not echoed (it may carry a token in its query); the reason names the host it tried.
    return namingSetting('clickhouse.url', `cannot open database ${clickhouse.database} on the ClickHouse server`, () =>
      HttpStore.open(clickhouse.url, clickhouse.database),
    );
  }
  // Loaded only here: the embedded engine is a ~550 MB library that a component on a server never needs.
  const { ChdbStore } = await import('./chdb-store.js').catch((error: unknown) => {
    // The package itself missing, or only its per-platform library (removed to slim a split deployment).
    const missing = (error as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND' || (error as { name?: unknown }).name === 'ChdbPlatformUnsupportedError';
    if (!missing) throw error;
    throw new ConfigError(
      'the embedded ClickHouse (npm package chdb with its @chdb/lib-* library) is not installed: run npm install, or set clickhouse.url to a ClickHouse server',
    );
  });
  return ChdbStore.open(embedded.data_dir, clickhouse.database);
}
