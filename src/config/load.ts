import { requiresClickHouse, requiresKafka, usesGroup, type SettingGroup } from './components.js';
import { deepFreeze } from './freeze.js';
import { readAuth } from './read-auth.js';
import { readApi, readListenAddrs, readMap } from './read-api.js';
import { readIngest } from './read-ingest.js';
import { readKafka } from './read-kafka.js';
import { readLogminer } from './read-logminer.js';
import { readNotifier } from './read-notifier.js';
import { readAssembler, readThresholds, readWriter } from './read-pipeline.js';
import { readClickHouse, readEmbedded, requireSetting } from './read-storage.js';
import { SettingReader } from './reader.js';
import type { ComponentName, Settings } from './settings.js';
import { SettingSource, envOverrides, isTable, readConfigFile } from './sources.js';
import { ConfigError } from './config-error.js';

const SECTIONS: readonly SettingGroup[] = [
  'kafka',
  'clickhouse',
  'embedded',
  'ingest',
  'writer',
  'assembler',
  'thresholds',
  'logminer',
  'notifier',
  'map',
  'auth',
];

/**
 * Builds the settings of one component from the TOML file named by SVC_CONFIG, overridden by SVC__
 * variables, validated once and frozen. Throws a ConfigError naming the setting on a bad value.
 */
export function loadSettings(component: ComponentName, env: NodeJS.ProcessEnv): Settings {
  const file = readConfigFile(env);
  const source = new SettingSource(file, envOverrides(env));
  const strict = new SettingReader(source, true);
  const lenient = new SettingReader(source, false);
  const readerFor = (group: SettingGroup): SettingReader => (usesGroup(component, group) ? strict : lenient);

  for (const section of SECTIONS) {
    if (usesGroup(component, section) && Object.hasOwn(file, section) && !isTable(file[section])) {
      throw new ConfigError(`${section} must be a table ([${section}] in the file)`);
    }
  }

  const settings: Settings = {
    ...readListenAddrs(readerFor, component),
    ...readApi(readerFor('api'), component),
    kafka: readKafka(readerFor('kafka')),
    clickhouse: readClickHouse(readerFor('clickhouse')),
    embedded: readEmbedded(readerFor('embedded')),
    ingest: readIngest(readerFor('ingest')),
    writer: readWriter(readerFor('writer')),
    assembler: readAssembler(readerFor('assembler')),
    thresholds: readThresholds(readerFor('thresholds')),
    logminer: readLogminer(readerFor('logminer'), component === 'logminer' || component === 'all-in-one'),
    notifier: readNotifier(readerFor('notifier')),
    map: readMap(readerFor('map')),
    auth: readAuth(readerFor('auth'), (enabled) => (enabled ? readerFor('auth') : lenient)),
    log_filter: env.RUST_LOG?.trim() || 'info',
  };

  // All-in-one falls back to the in-process bus and embedded chDB; split components cannot.
  if (requiresKafka(component)) requireSetting(settings.kafka.brokers, 'kafka.brokers');
  if (requiresClickHouse(component)) requireSetting(settings.clickhouse.url, 'clickhouse.url');
  return deepFreeze(settings);
}
