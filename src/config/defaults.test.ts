import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadSettings } from './load.js';
import type { ComponentName, Settings } from './settings.js';
import { SPLIT_REQUIRED } from './config-fixtures.test-support.js';

/** Every default, written out from the contract's tables and DESIGN.md §2 (all-in-one). */
const ALL_IN_ONE_DEFAULTS: Settings = {
  http_addr: '0.0.0.0:8090',
  grpc_addr: '0.0.0.0:4317',
  otlp_http_addr: '0.0.0.0:4318',
  query_timeout_secs: 15,
  record_secs: 15,
  metric_targets: [],
  trace_viewer_url: '',
  grafana_trace_url: '',
  dashboard_url: '',
  kafka: {
    brokers: '',
    topic: 'svc.signals',
    logs_topic: 'svc.logs',
    partitions: 12,
    max_record_bytes: 900000,
    retention_ms: 86400000,
  },
  clickhouse: { url: '', database: 'svc' },
  embedded: { data_dir: './svc-data', bus_max_bytes: 1073741824 },
  ingest: { max_in_flight_requests: 256, max_in_flight_bytes: 268435456, max_memory_bytes: 1073741824 },
  writer: { max_rows: 10000, max_age_ms: 1000, metrics_addr: '0.0.0.0:9100' },
  assembler: {
    gap_ms: 10000,
    max_age_ms: 60000,
    max_spans: 10000,
    max_buffer_bytes: 536870912,
    recent_per_partition: 100000,
    baseline_window_minutes: 60,
    baseline_refresh_secs: 60,
    stories_topic: 'svc.stories',
    stories_partitions: 3,
    metrics_addr: '0.0.0.0:9100',
  },
  thresholds: {
    min_baseline_traces: 50,
    slow_trace_factor: 1.5,
    slow_trace_margin_ms: 100,
    new_op_presence: 0.01,
    missing_op_presence: 0.95,
    slower_op_factor: 2.0,
    slower_op_margin_ms: 50,
  },
  logminer: {
    sim_threshold: 0.5,
    max_clusters_per_service: 5000,
    keep_http_status: true,
    fingerprinter: 'scalar',
    max_batch: 5000,
    flush_ms: 1000,
    detect_secs: 60,
    spike_window_min: 5,
    baseline_window_min: 60,
    spike_factor: 5.0,
    spike_min_count: 10,
    baseline_mode: 'flat',
    new_template_warmup_min: 15,
    alert_active_min: 10,
    ownership_window_min: 60,
    alerts_topic: 'svc.alerts',
    metrics_addr: '0.0.0.0:9100',
  },
  notifier: {
    targets: [],
    public_url: 'http://localhost:8090',
    kinds: ['new', 'spike', 'silence'],
    max_attempts: 8,
    timeout_secs: 10,
    max_age_secs: 3600,
    breaker_cooldown_secs: 300,
    alerts_topic: 'svc.alerts',
    metrics_addr: '0.0.0.0:9100',
  },
  map: { infra_services: ['flagd'] },
  auth: {
    enabled: false,
    username: '',
    password_hash: '',
    session_ttl_secs: 12 * 3600,
    session_key: null,
    secure_cookie: false,
  },
  log_filter: 'info',
};

const SPLIT_METRIC_TARGETS = [
  { job: 'svc-ingest', url: 'http://ingest:4318/metrics' },
  { job: 'svc-writer', url: 'http://writer:9100/metrics' },
  { job: 'svc-assembler', url: 'http://assembler:9100/metrics' },
  { job: 'svc-logminer', url: 'http://logminer:9100/metrics' },
  { job: 'svc-notifier', url: 'http://notifier:9100/metrics' },
];

test('all-in-one with no file and no variables gets every default', () => {
  assert.deepEqual(loadSettings('all-in-one', {}), ALL_IN_ONE_DEFAULTS);
});

test('an empty SVC_CONFIG means no file', () => {
  assert.deepEqual(loadSettings('all-in-one', { SVC_CONFIG: '' }), ALL_IN_ONE_DEFAULTS);
});

const perComponent: { component: ComponentName; http_addr: string; metric_targets: unknown[] }[] = [
  { component: 'all-in-one', http_addr: '0.0.0.0:8090', metric_targets: [] },
  { component: 'api', http_addr: '0.0.0.0:8090', metric_targets: SPLIT_METRIC_TARGETS },
  { component: 'ingest', http_addr: '0.0.0.0:4318', metric_targets: SPLIT_METRIC_TARGETS },
];

for (const { component, http_addr, metric_targets } of perComponent) {
  test(`${component}: http_addr defaults to ${http_addr}; metric_targets default`, () => {
    const settings = loadSettings(component, SPLIT_REQUIRED);
    assert.equal(settings.http_addr, http_addr);
    assert.equal(settings.grpc_addr, '0.0.0.0:4317');
    assert.deepEqual(settings.metric_targets, metric_targets);
  });
}

test('split components get the same defaults as all-in-one apart from what they must set', () => {
  for (const component of ['writer', 'assembler', 'logminer', 'notifier', 'api'] as const) {
    const settings = loadSettings(component, SPLIT_REQUIRED);
    assert.deepEqual(settings.logminer, ALL_IN_ONE_DEFAULTS.logminer, component);
    assert.deepEqual(settings.notifier, ALL_IN_ONE_DEFAULTS.notifier, component);
    assert.deepEqual(settings.assembler, ALL_IN_ONE_DEFAULTS.assembler, component);
    assert.deepEqual(settings.kafka, { ...ALL_IN_ONE_DEFAULTS.kafka, brokers: 'kafka:9092' }, component);
    assert.deepEqual(settings.clickhouse, { url: 'http://clickhouse:8123', database: 'svc' }, component);
  }
  assert.deepEqual(loadSettings('ingest', SPLIT_REQUIRED).ingest, ALL_IN_ONE_DEFAULTS.ingest);
});

test('RUST_LOG sets the log filter', () => {
  assert.equal(loadSettings('all-in-one', { RUST_LOG: 'debug,kafka=warn' }).log_filter, 'debug,kafka=warn');
  assert.equal(loadSettings('all-in-one', { RUST_LOG: '' }).log_filter, 'info');
});
