/** Chooses the storage driver from settings: a ClickHouse server when its URL is set, else embedded chDB. */

import type { ClickHouseSettings, EmbeddedSettings } from '../config/settings.js';
import type { Store } from '../model/store.js';
import { ChdbStore } from './chdb-store.js';
import { HttpStore } from './http-store.js';

/** Opens the store: HTTP when `clickhouse.url` is set, otherwise chDB on `embedded.data_dir`. */
export async function createStore(settings: { clickhouse: ClickHouseSettings; embedded: Pick<EmbeddedSettings, 'data_dir'> }): Promise<Store> {
  const { clickhouse, embedded } = settings;
  if (clickhouse.url !== '') return HttpStore.open(clickhouse.url, clickhouse.database);
  return ChdbStore.open(embedded.data_dir, clickhouse.database);
}
