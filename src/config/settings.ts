/**
 * The validated, frozen settings object. Names mirror the contract's setting paths (snake_case keys
 * of the TOML file) so that a setting is found by the same words in the file, the environment and
 * the code.
 */

export interface KafkaSettings {
  /** Comma-separated bootstrap servers; '' in all-in-one when unset (the in-process bus is used). */
  brokers: string;
  topic: string;
  logs_topic: string;
  partitions: number;
  max_record_bytes: number;
  retention_ms: number;
}

export interface ClickHouseSettings {
  /** HTTP URL; '' in all-in-one when unset (embedded chDB is used). */
  url: string;
  database: string;
}

export interface EmbeddedSettings {
  data_dir: string;
  /** Bytes the durable embedded bus may keep on disk (records not yet committed by every group). */
  bus_max_bytes: number;
}

/** [ingest]: bounds on export work in flight; past them exports are answered "retry later" (see read-ingest.ts). */
export interface IngestSettings {
  max_in_flight_requests: number;
  /** Request bytes plus the estimated decoded rows not yet acknowledged by the bus. */
  max_in_flight_bytes: number;
  /** Anonymous resident bytes of the process above which new exports are refused; 0 turns it off. */
  max_memory_bytes: number;
}

export interface WriterSettings {
  max_rows: number;
  max_age_ms: number;
  metrics_addr: string;
}

export interface AssemblerSettings {
  gap_ms: number;
  max_age_ms: number;
  max_spans: number;
  max_buffer_bytes: number;
  recent_per_partition: number;
  baseline_window_minutes: number;
  baseline_refresh_secs: number;
  stories_topic: string;
  stories_partitions: number;
  metrics_addr: string;
}

export interface ThresholdSettings {
  min_baseline_traces: number;
  slow_trace_factor: number;
  slow_trace_margin_ms: number;
  new_op_presence: number;
  missing_op_presence: number;
  slower_op_factor: number;
  slower_op_margin_ms: number;
}

export type Fingerprinter = 'off' | 'scalar' | 'parallel' | 'gpu';
export type BaselineMode = 'flat' | 'seasonal';

export interface LogminerSettings {
  sim_threshold: number;
  max_clusters_per_service: number;
  keep_http_status: boolean;
  fingerprinter: Fingerprinter;
  max_batch: number;
  flush_ms: number;
  detect_secs: number;
  spike_window_min: number;
  baseline_window_min: number;
  spike_factor: number;
  spike_min_count: number;
  baseline_mode: BaselineMode;
  new_template_warmup_min: number;
  alert_active_min: number;
  ownership_window_min: number;
  alerts_topic: string;
  metrics_addr: string;
}

export interface NotifierTarget {
  name: string;
  kind: 'webhook' | 'chat';
  url: string;
}

export type AlertKind = 'new' | 'spike' | 'silence';

export interface NotifierSettings {
  targets: NotifierTarget[];
  public_url: string;
  kinds: AlertKind[];
  max_attempts: number;
  timeout_secs: number;
  max_age_secs: number;
  breaker_cooldown_secs: number;
  alerts_topic: string;
  metrics_addr: string;
}

export interface MetricTarget {
  job: string;
  url: string;
}

export interface MapSettings {
  infra_services: string[];
}

export interface AuthSettings {
  enabled: boolean;
  username: string;
  password_hash: string;
  /** Seconds. */
  session_ttl_secs: number;
  /** Decoded key bytes; null when unset (a random key per process). */
  session_key: Buffer | null;
  secure_cookie: boolean;
}

export interface Settings {
  /** API address in api/all-in-one; OTLP/HTTP address for the ingest component. */
  http_addr: string;
  grpc_addr: string;
  /** OTLP/HTTP address of all-in-one. */
  otlp_http_addr: string;
  query_timeout_secs: number;
  record_secs: number;
  metric_targets: MetricTarget[];
  trace_viewer_url: string;
  /** A URL template with `{trace_id}` that opens one trace in Grafana (Explore, svc's Jaeger data source); '' hides the link. */
  grafana_trace_url: string;
  dashboard_url: string;
  kafka: KafkaSettings;
  clickhouse: ClickHouseSettings;
  embedded: EmbeddedSettings;
  ingest: IngestSettings;
  writer: WriterSettings;
  assembler: AssemblerSettings;
  thresholds: ThresholdSettings;
  logminer: LogminerSettings;
  notifier: NotifierSettings;
  map: MapSettings;
  auth: AuthSettings;
  /** The RUST_LOG filter (default 'info'). */
  log_filter: string;
}

/** Which component is being started decides required settings and per-component defaults. */
export type ComponentName = 'all-in-one' | 'ingest' | 'writer' | 'assembler' | 'logminer' | 'notifier' | 'api' | 'tool';
