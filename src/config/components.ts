import type { ComponentName } from './settings.js';

/**
 * Groups of settings: the TOML sections, plus the top-level keys grouped by the server that needs
 * them ('api' = query_timeout_secs, record_secs, metric_targets, trace_viewer_url, grafana_trace_url, dashboard_url).
 */
export type SettingGroup =
  | 'kafka'
  | 'clickhouse'
  | 'embedded'
  | 'ingest'
  | 'writer'
  | 'assembler'
  | 'thresholds'
  | 'logminer'
  | 'notifier'
  | 'api'
  | 'map'
  | 'auth'
  | 'http_addr'
  | 'grpc_addr'
  | 'otlp_http_addr';

const ALL_GROUPS: readonly SettingGroup[] = [
  'kafka',
  'clickhouse',
  'embedded',
  'ingest',
  'writer',
  'assembler',
  'thresholds',
  'logminer',
  'notifier',
  'api',
  'map',
  'auth',
  'http_addr',
  'grpc_addr',
  'otlp_http_addr',
];

/**
 * What each component reads. Groups outside its list are still filled (best effort, defaults on a
 * bad value) but never stop it: the contract says a component ignores sections it does not use.
 */
const GROUPS_USED: Readonly<Record<ComponentName, readonly SettingGroup[]>> = {
  'all-in-one': ALL_GROUPS,
  ingest: ['kafka', 'ingest', 'http_addr', 'grpc_addr'],
  writer: ['kafka', 'clickhouse', 'writer'],
  assembler: ['kafka', 'clickhouse', 'assembler', 'thresholds'],
  logminer: ['kafka', 'clickhouse', 'logminer'],
  notifier: ['kafka', 'clickhouse', 'notifier'],
  api: ['kafka', 'clickhouse', 'api', 'map', 'auth', 'http_addr'],
  // Developer tools: `templates` mines with the logminer settings; `remine` reads the database.
  tool: ['clickhouse', 'embedded', 'logminer'],
};

export function usesGroup(component: ComponentName, group: SettingGroup): boolean {
  return GROUPS_USED[component].includes(group);
}

/** Components that connect to Kafka and a ClickHouse server and cannot fall back to embedded ones. */
export function requiresKafka(component: ComponentName): boolean {
  return component !== 'all-in-one' && component !== 'tool';
}

export function requiresClickHouse(component: ComponentName): boolean {
  return requiresKafka(component) && component !== 'ingest';
}
