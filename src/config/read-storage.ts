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

/** [embedded]: where all-in-one keeps chDB's data when no ClickHouse server is configured. */
export function readEmbedded(r: SettingReader): EmbeddedSettings {
  return { data_dir: r.string('embedded.data_dir', './svc-data', nonEmpty) };
}

/** Stops with `<path> is required` for a required setting left empty. */
export function requireSetting(value: string, path: string): void {
  if (value === '') throw new ConfigError(`${path} is required`);
}
