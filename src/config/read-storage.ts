import { ConfigError } from './config-error.js';
import { identifier, isHttpUrl, nonEmpty } from './checks.js';
import type { Check, SettingReader } from './reader.js';
import type { ClickHouseSettings, EmbeddedSettings } from './settings.js';

/** The contract supports no credentials: the service connects as the default passwordless user. */
const clickhouseUrl: Check<string> = (value, path) => {
  if (value === '') return null; // whether it is required depends on the component
  if (!isHttpUrl(value)) return `${path} must be an http:// or https:// URL`;
  const url = new URL(value);
  // The URL is never echoed: it would print the very credentials being refused.
  return url.username !== '' || url.password !== '' ? `${path} must not contain credentials` : null;
};

/** [clickhouse]; url is '' when unset (embedded chDB in all-in-one). */
export function readClickHouse(r: SettingReader): ClickHouseSettings {
  return {
    url: r.string('clickhouse.url', '', clickhouseUrl).trim(),
    database: r.string('clickhouse.database', 'svc', identifier),
  };
}

/** Below this the bus could hold too few segments to keep accepting while consumers catch up. */
export const MIN_BUS_MAX_BYTES = 16 * 1024 * 1024;

const atLeastMinBusBytes: Check<number> = (value, path) => (value >= MIN_BUS_MAX_BYTES ? null : `${path} must be at least ${MIN_BUS_MAX_BYTES}`);

/**
 * [embedded]: where all-in-one keeps chDB's data and the durable bus when no ClickHouse server and
 * no Kafka are configured, and how much the bus may hold on disk before ingest answers "retry later".
 */
export function readEmbedded(r: SettingReader): EmbeddedSettings {
  return {
    data_dir: r.string('embedded.data_dir', './svc-data', nonEmpty),
    bus_max_bytes: r.int('embedded.bus_max_bytes', 1024 * 1024 * 1024, atLeastMinBusBytes),
  };
}

/** Stops with `<path> is required` for a required setting left empty. */
export function requireSetting(value: string, path: string): void {
  if (value === '') throw new ConfigError(`${path} is required`);
}
