import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { ConfigError } from './config-error.js';
import { loadSettings } from './load.js';
import { TempConfigFiles } from './config-fixtures.test-support.js';

const files = new TempConfigFiles();
after(() => files.remove());

const FULL_FILE = `
http_addr = "127.0.0.1:9090"
grpc_addr = "127.0.0.1:5317"
otlp_http_addr = "127.0.0.1:5318"
query_timeout_secs = 0
record_secs = 0
trace_viewer_url = "https://jaeger.example/trace/"
grafana_trace_url = "https://grafana.example/explore?left=%7B%22queries%22:%5B%7B%22query%22:%22{trace_id}%22%7D%5D%7D"
dashboard_url = "https://grafana.example/d/x"

[[metric_targets]]
job = "svc-writer"
url = "http://w1:9100/metrics"

[kafka]
brokers = "k1:9092, k2:9092"
topic = "a.signals"
logs_topic = "a.logs"
partitions = 24
max_record_bytes = 1048575
retention_ms = -1

[clickhouse]
url = "http://ch:8123"
database = "obs_1"

[embedded]
data_dir = "/var/lib/svc"
bus_max_bytes = 2147483648

[ingest]
max_in_flight_requests = 32
max_in_flight_bytes = 67108864
max_memory_bytes = 0

[writer]
max_rows = 500
max_age_ms = 250
metrics_addr = "127.0.0.1:9101"

[thresholds]
slow_trace_factor = 3
new_op_presence = 0.2

[logminer]
sim_threshold = 0.7
keep_http_status = false
fingerprinter = "parallel"
baseline_mode = "seasonal"
new_template_warmup_min = 0

[notifier]
public_url = "https://svc.example"
kinds = ["spike"]
timeout_secs = 15

[[notifier.targets]]
name = "ops"
kind = "webhook"
url = "https://hooks.example/abc"

[[notifier.targets]]
name = "chat"
kind = "chat"
url = "https://chat.example/hook"

[map]
infra_services = []

[auth]
secure_cookie = true
session_ttl = "30m"
`;

test('values from the file alone', () => {
  const s = loadSettings('all-in-one', files.env(FULL_FILE));
  assert.equal(s.http_addr, '127.0.0.1:9090');
  assert.equal(s.grpc_addr, '127.0.0.1:5317');
  assert.equal(s.otlp_http_addr, '127.0.0.1:5318');
  assert.equal(s.query_timeout_secs, 0);
  assert.equal(s.record_secs, 0);
  assert.equal(s.trace_viewer_url, 'https://jaeger.example/trace/');
  assert.equal(s.grafana_trace_url, 'https://grafana.example/explore?left=%7B%22queries%22:%5B%7B%22query%22:%22{trace_id}%22%7D%5D%7D');
  assert.equal(s.dashboard_url, 'https://grafana.example/d/x');
  assert.deepEqual(s.metric_targets, [{ job: 'svc-writer', url: 'http://w1:9100/metrics' }]);
  assert.deepEqual(s.kafka, {
    brokers: 'k1:9092, k2:9092',
    topic: 'a.signals',
    logs_topic: 'a.logs',
    partitions: 24,
    max_record_bytes: 1048575,
    retention_ms: -1,
  });
  assert.deepEqual(s.clickhouse, { url: 'http://ch:8123', database: 'obs_1' });
  assert.equal(s.embedded.data_dir, '/var/lib/svc');
  assert.equal(s.embedded.bus_max_bytes, 2147483648);
  assert.deepEqual(s.ingest, { max_in_flight_requests: 32, max_in_flight_bytes: 67108864, max_memory_bytes: 0 });
  assert.deepEqual(s.writer, { max_rows: 500, max_age_ms: 250, metrics_addr: '127.0.0.1:9101' });
  assert.equal(s.thresholds.slow_trace_factor, 3);
  assert.equal(s.thresholds.new_op_presence, 0.2);
  assert.equal(s.thresholds.min_baseline_traces, 50, 'keys missing from a section keep their default');
  assert.equal(s.logminer.sim_threshold, 0.7);
  assert.equal(s.logminer.keep_http_status, false);
  assert.equal(s.logminer.fingerprinter, 'parallel');
  assert.equal(s.logminer.baseline_mode, 'seasonal');
  assert.equal(s.logminer.new_template_warmup_min, 0);
  assert.equal(s.notifier.public_url, 'https://svc.example');
  assert.deepEqual(s.notifier.kinds, ['spike']);
  assert.equal(s.notifier.timeout_secs, 15);
  assert.deepEqual(s.notifier.targets, [
    { name: 'ops', kind: 'webhook', url: 'https://hooks.example/abc' },
    { name: 'chat', kind: 'chat', url: 'https://chat.example/hook' },
  ]);
  assert.deepEqual(s.map.infra_services, []);
  assert.equal(s.auth.secure_cookie, true);
  assert.equal(s.auth.session_ttl_secs, 1800);
});

const overrides: { name: string; value: string; read: (s: ReturnType<typeof loadSettings>) => unknown; expected: unknown }[] = [
  { name: 'SVC__KAFKA__BROKERS', value: 'env:9092', read: (s) => s.kafka.brokers, expected: 'env:9092' },
  { name: 'SVC__HTTP_ADDR', value: '127.0.0.1:0', read: (s) => s.http_addr, expected: '127.0.0.1:0' },
  { name: 'SVC__KAFKA__PARTITIONS', value: '6', read: (s) => s.kafka.partitions, expected: 6 },
  { name: 'SVC__KAFKA__RETENTION_MS', value: '-1', read: (s) => s.kafka.retention_ms, expected: -1 },
  { name: 'SVC__THRESHOLDS__SLOW_TRACE_FACTOR', value: '2.25', read: (s) => s.thresholds.slow_trace_factor, expected: 2.25 },
  { name: 'SVC__THRESHOLDS__NEW_OP_PRESENCE', value: '1e-3', read: (s) => s.thresholds.new_op_presence, expected: 0.001 },
  { name: 'SVC__LOGMINER__KEEP_HTTP_STATUS', value: 'true', read: (s) => s.logminer.keep_http_status, expected: true },
  { name: 'SVC__AUTH__SECURE_COOKIE', value: 'false', read: (s) => s.auth.secure_cookie, expected: false },
  { name: 'SVC__AUTH__SESSION_TTL', value: '2d', read: (s) => s.auth.session_ttl_secs, expected: 172800 },
  { name: 'SVC__LOGMINER__BASELINE_MODE', value: 'flat', read: (s) => s.logminer.baseline_mode, expected: 'flat' },
  { name: 'SVC__NOTIFIER__TIMEOUT_SECS', value: ' 3 ', read: (s) => s.notifier.timeout_secs, expected: 3 },
  { name: 'SVC__CLICKHOUSE__DATABASE', value: 'other', read: (s) => s.clickhouse.database, expected: 'other' },
  { name: 'SVC__EMBEDDED__DATA_DIR', value: '/data', read: (s) => s.embedded.data_dir, expected: '/data' },
  { name: 'SVC__EMBEDDED__BUS_MAX_BYTES', value: '33554432', read: (s) => s.embedded.bus_max_bytes, expected: 33554432 },
  { name: 'SVC__INGEST__MAX_IN_FLIGHT_REQUESTS', value: '4', read: (s) => s.ingest.max_in_flight_requests, expected: 4 },
  { name: 'SVC__INGEST__MAX_IN_FLIGHT_BYTES', value: '1048576', read: (s) => s.ingest.max_in_flight_bytes, expected: 1048576 },
  { name: 'SVC__INGEST__MAX_MEMORY_BYTES', value: '536870912', read: (s) => s.ingest.max_memory_bytes, expected: 536870912 },
];

for (const { name, value, read, expected } of overrides) {
  test(`${name}=${value} overrides the file`, () => {
    const s = loadSettings('all-in-one', files.env(FULL_FILE, { [name]: value }));
    assert.deepEqual(read(s), expected);
  });
}

test('variables alone, without a file, are applied', () => {
  const s = loadSettings('all-in-one', { SVC__KAFKA__TOPIC: 'x.signals', SVC__WRITER__MAX_ROWS: '7' });
  assert.equal(s.kafka.topic, 'x.signals');
  assert.equal(s.writer.max_rows, 7);
});

const badConversions: { env: NodeJS.ProcessEnv; message: string }[] = [
  { env: { SVC__KAFKA__PARTITIONS: 'twelve' }, message: 'kafka.partitions must be an integer, got string "twelve"' },
  { env: { SVC__KAFKA__PARTITIONS: '1.5' }, message: 'kafka.partitions must be an integer, got string "1.5"' },
  { env: { SVC__KAFKA__PARTITIONS: '' }, message: 'kafka.partitions must be an integer, got string ""' },
  { env: { SVC__WRITER__MAX_ROWS: '99999999999999999999' }, message: 'writer.max_rows must be an integer, got string "99999999999999999999"' },
  { env: { SVC__THRESHOLDS__SLOW_TRACE_FACTOR: 'fast' }, message: 'thresholds.slow_trace_factor must be a number, got string "fast"' },
  { env: { SVC__LOGMINER__SPIKE_FACTOR: 'NaN' }, message: 'logminer.spike_factor must be a number, got string "NaN"' },
  { env: { SVC__AUTH__ENABLED: 'yes' }, message: 'auth.enabled must be true or false, got string "yes"' },
  { env: { SVC__LOGMINER__KEEP_HTTP_STATUS: '1' }, message: 'logminer.keep_http_status must be true or false, got string "1"' },
];

for (const { env, message } of badConversions) {
  test(`bad variable: ${message}`, () => {
    assert.throws(() => loadSettings('all-in-one', env), { name: 'ConfigError', message });
  });
}

const badFileTypes: { toml: string; message: string }[] = [
  { toml: '[kafka]\npartitions = "12"', message: 'kafka.partitions must be an integer, got string "12"' },
  { toml: '[kafka]\npartitions = 1.5', message: 'kafka.partitions must be an integer, got floating point `1.5`' },
  { toml: '[kafka]\nbrokers = ["a:1"]', message: 'kafka.brokers must be a string, got sequence' },
  { toml: '[logminer]\nkeep_http_status = "true"', message: 'logminer.keep_http_status must be true or false, got string "true"' },
  { toml: '[thresholds]\nslow_trace_factor = inf', message: 'thresholds.slow_trace_factor must be a number, got floating point `Infinity`' },
  { toml: '[map]\ninfra_services = "a,b"', message: 'map.infra_services: invalid type: string "a,b", expected a sequence' },
  { toml: '[map]\ninfra_services = [1]', message: 'map.infra_services[0] must be a string, got integer `1`' },
  { toml: 'kafka = 5', message: 'kafka must be a table ([kafka] in the file)' },
  { toml: 'ingest = 5', message: 'ingest must be a table ([ingest] in the file)' },
  { toml: '[ingest]\nmax_in_flight_bytes = "256MiB"', message: 'ingest.max_in_flight_bytes must be an integer, got string "256MiB"' },
];

for (const { toml, message } of badFileTypes) {
  test(`bad file value: ${message}`, () => {
    assert.throws(() => loadSettings('all-in-one', files.env(toml)), { name: 'ConfigError', message });
  });
}

const listsFromEnv: { name: string; value: string; message: string }[] = [
  { name: 'SVC__MAP__INFRA_SERVICES', value: 'a,b', message: 'map.infra_services: invalid type: string "a,b", expected a sequence' },
  { name: 'SVC__NOTIFIER__KINDS', value: 'new', message: 'notifier.kinds: invalid type: string "new", expected a sequence' },
  { name: 'SVC__METRIC_TARGETS', value: 'x', message: 'metric_targets: invalid type: string "x", expected a sequence' },
  // A table setting: the value would be a target URL, which is never printed.
  {
    name: 'SVC__NOTIFIER__TARGETS',
    value: 'https://hooks.example/secret',
    message: 'notifier.targets: invalid type: string "<hidden>", expected a sequence',
  },
  { name: 'SVC__NOTIFIER__TARGETS__0__URL', value: 'https://hooks.example/secret', message: 'notifier.targets: invalid type: map, expected a sequence' },
];

for (const { name, value, message } of listsFromEnv) {
  test(`list or table setting from the environment is rejected: ${name}`, () => {
    const error = captureError(() => loadSettings('all-in-one', { [name]: value }));
    assert.equal(error.message, message);
    assert.match(error.message, /invalid type: (string .*|map), expected a sequence$/);
    assert.doesNotMatch(error.message, /secret/);
  });
}

test('unknown keys, unknown sections and unknown variables are ignored', () => {
  const toml = '[kafka]\nbrokers = "k:9092"\nno_such_key = 1\n[no_such_section]\nx = "y"\n[writer.nested]\nz = 1\n';
  const env = files.env(toml, { SVC__NO_SUCH: '1', SVC__KAFKA__NO_SUCH: 'x', SVC__KAFKA____X: 'y', SVC_OTHER: 'z' });
  assert.equal(loadSettings('all-in-one', env).kafka.brokers, 'k:9092');
});

test('a missing or unparsable file stops with a message naming SVC_CONFIG', () => {
  assert.throws(() => loadSettings('all-in-one', { SVC_CONFIG: files.path('missing.toml') }), {
    name: 'ConfigError',
    message: /^SVC_CONFIG: cannot read .*missing\.toml/,
  });
  assert.throws(() => loadSettings('all-in-one', files.env('[kafka\n')), { name: 'ConfigError', message: /^SVC_CONFIG: .* is not valid TOML/ });
});

test('the settings object is deeply frozen', () => {
  const s = loadSettings('all-in-one', files.env(FULL_FILE, { SVC__AUTH__SESSION_KEY: Buffer.alloc(32, 7).toString('base64') }));
  assert.ok(Object.isFrozen(s));
  for (const section of [s.kafka, s.clickhouse, s.ingest, s.writer, s.assembler, s.thresholds, s.logminer, s.notifier, s.map, s.auth]) {
    assert.ok(Object.isFrozen(section));
  }
  assert.ok(Object.isFrozen(s.notifier.targets) && Object.isFrozen(s.notifier.targets[0]));
  assert.ok(Object.isFrozen(s.metric_targets) && Object.isFrozen(s.map.infra_services) && Object.isFrozen(s.notifier.kinds));
  assert.throws(() => {
    (s.kafka as { topic: string }).topic = 'changed';
  }, TypeError);
  assert.equal(s.auth.session_key?.length, 32);
});

test('two loads share no mutable defaults', () => {
  const first = loadSettings('api', { SVC__KAFKA__BROKERS: 'k:1', SVC__CLICKHOUSE__URL: 'http://c:1' });
  const second = loadSettings('api', { SVC__KAFKA__BROKERS: 'k:1', SVC__CLICKHOUSE__URL: 'http://c:1' });
  assert.notEqual(first.metric_targets, second.metric_targets);
  assert.deepEqual(first.metric_targets, second.metric_targets);
});

function captureError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error;
  }
  assert.fail('expected a ConfigError');
}
