import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { hashSync } from '@node-rs/argon2';
import { loadSettings } from './load.js';
import type { ComponentName } from './settings.js';
import { SPLIT_REQUIRED, TempConfigFiles } from './config-fixtures.test-support.js';

const files = new TempConfigFiles();
after(() => files.remove());

// Low costs keep the test fast; any Argon2id PHC string is accepted.
const PASSWORD_HASH = hashSync('correct horse', { memoryCost: 1024, timeCost: 1, parallelism: 1 });
const SESSION_KEY = Buffer.alloc(32, 1).toString('base64');
const AUTH_ON: NodeJS.ProcessEnv = {
  SVC__AUTH__ENABLED: 'true',
  SVC__AUTH__USERNAME: 'admin',
  SVC__AUTH__PASSWORD_HASH: PASSWORD_HASH,
};

interface Case {
  name: string;
  env: NodeJS.ProcessEnv;
  message: string;
  component?: ComponentName;
}

/** The contract's start-up errors, word for word, plus the other ranges of its tables. */
const cases: Case[] = [
  // Contract "Errors" section.
  { name: 'username with |', env: { ...AUTH_ON, SVC__AUTH__USERNAME: 'a|b' }, message: "auth.username must not contain '|' or ':'" },
  { name: 'username with :', env: { ...AUTH_ON, SVC__AUTH__USERNAME: 'a:b' }, message: "auth.username must not contain '|' or ':'" },
  {
    name: 'short session key',
    env: { ...AUTH_ON, SVC__AUTH__SESSION_KEY: Buffer.alloc(31).toString('base64') },
    message: 'auth.session_key must decode to at least 32 bytes',
  },
  {
    name: 'session key not base64',
    env: { ...AUTH_ON, SVC__AUTH__SESSION_KEY: `${'x'.repeat(44)}!` },
    message: 'auth.session_key must decode to at least 32 bytes',
  },
  ...['0s', '0d', '366d', '12', 'h', '1w', '-1h', '1.5h', '527041m', 'twelve'].map((ttl) => ({
    name: `session ttl ${ttl}`,
    env: { ...AUTH_ON, SVC__AUTH__SESSION_TTL: ttl },
    message: 'auth.session_ttl must be <n>s, <n>m, <n>h or <n>d, above 0 and at most 365d',
  })),
  { name: 'plain password', env: { ...AUTH_ON, SVC__AUTH__PASSWORD_HASH: 'hunter2' }, message: 'auth.password_hash is not a valid PHC string' },
  {
    name: 'argon2i hash',
    env: { ...AUTH_ON, SVC__AUTH__PASSWORD_HASH: PASSWORD_HASH.replace('$argon2id$', '$argon2i$') },
    message: 'auth.password_hash is not a valid PHC string',
  },
  { name: 'hash with bad base64', env: { ...AUTH_ON, SVC__AUTH__PASSWORD_HASH: `${PASSWORD_HASH}=` }, message: 'auth.password_hash is not a valid PHC string' },
  {
    name: 'hash without output',
    env: { ...AUTH_ON, SVC__AUTH__PASSWORD_HASH: PASSWORD_HASH.slice(0, PASSWORD_HASH.lastIndexOf('$')) },
    message: 'auth.password_hash is not a valid PHC string',
  },
  { name: 'timeout 0', env: { SVC__NOTIFIER__TIMEOUT_SECS: '0' }, message: 'notifier.timeout_secs must be within 1..=15' },
  { name: 'timeout 16', env: { SVC__NOTIFIER__TIMEOUT_SECS: '16' }, message: 'notifier.timeout_secs must be within 1..=15' },
  { name: 'retention 0', env: { SVC__KAFKA__RETENTION_MS: '0' }, message: 'kafka.retention_ms must be -1 (unlimited) or positive' },
  { name: 'retention -2', env: { SVC__KAFKA__RETENTION_MS: '-2' }, message: 'kafka.retention_ms must be -1 (unlimited) or positive' },
  { name: 'baseline mode', env: { SVC__LOGMINER__BASELINE_MODE: 'hourly' }, message: 'logminer.baseline_mode must be flat or seasonal' },
  { name: 'fingerprinter gpu', env: { SVC__LOGMINER__FINGERPRINTER: 'gpu' }, message: 'logminer.fingerprinter gpu needs a build with the gpu feature' },
  // Auth keys required when enabled.
  { name: 'username missing', env: { ...AUTH_ON, SVC__AUTH__USERNAME: '' }, message: 'auth.username is required when auth.enabled is true' },
  { name: 'hash missing', env: { ...AUTH_ON, SVC__AUTH__PASSWORD_HASH: '' }, message: 'auth.password_hash is required when auth.enabled is true' },
  // Other ranges of the contract's tables.
  { name: 'fingerprinter unknown', env: { SVC__LOGMINER__FINGERPRINTER: 'fast' }, message: 'logminer.fingerprinter must be off, scalar, parallel or gpu' },
  { name: 'record bytes 0', env: { SVC__KAFKA__MAX_RECORD_BYTES: '0' }, message: 'kafka.max_record_bytes must be within 1..=1048575' },
  { name: 'record bytes 1 MiB', env: { SVC__KAFKA__MAX_RECORD_BYTES: '1048576' }, message: 'kafka.max_record_bytes must be within 1..=1048575' },
  { name: 'partitions 0', env: { SVC__KAFKA__PARTITIONS: '0' }, message: 'kafka.partitions must be a positive integer' },
  { name: 'same topics', env: { SVC__KAFKA__LOGS_TOPIC: 'svc.signals' }, message: 'kafka.logs_topic must differ from kafka.topic' },
  { name: 'bad topic name', env: { SVC__KAFKA__TOPIC: 'a topic' }, message: "kafka.topic must be a topic name of 1 to 249 letters, digits, '.', '_' or '-'" },
  { name: 'bad brokers', env: { SVC__KAFKA__BROKERS: 'kafka' }, message: 'kafka.brokers must be comma-separated host:port entries' },
  { name: 'clusters 0', env: { SVC__LOGMINER__MAX_CLUSTERS_PER_SERVICE: '0' }, message: 'logminer.max_clusters_per_service must be a positive integer' },
  { name: 'sim threshold above 1', env: { SVC__LOGMINER__SIM_THRESHOLD: '1.5' }, message: 'logminer.sim_threshold must be within 0..=1' },
  { name: 'sim threshold below 0', env: { SVC__LOGMINER__SIM_THRESHOLD: '-0.1' }, message: 'logminer.sim_threshold must be within 0..=1' },
  { name: 'max batch 0', env: { SVC__LOGMINER__MAX_BATCH: '0' }, message: 'logminer.max_batch must be a positive integer' },
  { name: 'bus too small', env: { SVC__EMBEDDED__BUS_MAX_BYTES: '1048576' }, message: 'embedded.bus_max_bytes must be at least 16777216' },
  { name: 'in-flight requests 0', env: { SVC__INGEST__MAX_IN_FLIGHT_REQUESTS: '0' }, message: 'ingest.max_in_flight_requests must be a positive integer' },
  { name: 'in-flight bytes too small', env: { SVC__INGEST__MAX_IN_FLIGHT_BYTES: '1048575' }, message: 'ingest.max_in_flight_bytes must be at least 1048576' },
  {
    name: 'in-flight bytes too small (ingest)',
    env: { ...SPLIT_REQUIRED, SVC__INGEST__MAX_IN_FLIGHT_BYTES: '0' },
    message: 'ingest.max_in_flight_bytes must be at least 1048576',
    component: 'ingest',
  },
  {
    name: 'memory bound too small',
    env: { SVC__INGEST__MAX_MEMORY_BYTES: '1048576' },
    message: 'ingest.max_memory_bytes must be 0 (off) or at least 67108864',
  },
  { name: 'flush 0', env: { SVC__LOGMINER__FLUSH_MS: '0' }, message: 'logminer.flush_ms must be a positive integer' },
  { name: 'writer rows 0', env: { SVC__WRITER__MAX_ROWS: '0' }, message: 'writer.max_rows must be a positive integer' },
  { name: 'assembler gap -1', env: { SVC__ASSEMBLER__GAP_MS: '-1' }, message: 'assembler.gap_ms must be a positive integer' },
  { name: 'record secs -1', env: { SVC__RECORD_SECS: '-1' }, message: 'record_secs must be 0 or more' },
  { name: 'query timeout -1', env: { SVC__QUERY_TIMEOUT_SECS: '-1' }, message: 'query_timeout_secs must be 0 or more' },
  { name: 'presence above 1', env: { SVC__THRESHOLDS__MISSING_OP_PRESENCE: '1.01' }, message: 'thresholds.missing_op_presence must be within 0..=1' },
  { name: 'spike factor 0', env: { SVC__LOGMINER__SPIKE_FACTOR: '0' }, message: 'logminer.spike_factor must be above 0' },
  { name: 'max attempts 0', env: { SVC__NOTIFIER__MAX_ATTEMPTS: '0' }, message: 'notifier.max_attempts must be a positive integer' },
  {
    name: 'database with a quote',
    env: { SVC__CLICKHOUSE__DATABASE: 'svc`; DROP' },
    message: 'clickhouse.database must be a plain identifier ([A-Za-z_][A-Za-z0-9_]*)',
  },
  {
    name: 'database starting with a digit',
    env: { SVC__CLICKHOUSE__DATABASE: '1svc' },
    message: 'clickhouse.database must be a plain identifier ([A-Za-z_][A-Za-z0-9_]*)',
  },
  { name: 'clickhouse not http', env: { SVC__CLICKHOUSE__URL: 'tcp://ch:9000' }, message: 'clickhouse.url must be an http:// or https:// URL' },
  { name: 'clickhouse credentials', env: { SVC__CLICKHOUSE__URL: 'http://user:pw@ch:8123' }, message: 'clickhouse.url must not contain credentials' },
  { name: 'public url', env: { SVC__NOTIFIER__PUBLIC_URL: 'localhost:8090' }, message: 'notifier.public_url must be an http:// or https:// URL' },
  { name: 'trace viewer url', env: { SVC__TRACE_VIEWER_URL: 'jaeger' }, message: 'trace_viewer_url must be an http:// or https:// URL' },
  {
    name: 'grafana trace url without placeholder',
    env: { SVC__GRAFANA_TRACE_URL: 'http://grafana:3000/explore' },
    message: 'grafana_trace_url must contain {trace_id} where the trace id goes',
  },
  {
    name: 'grafana trace url not http',
    env: { SVC__GRAFANA_TRACE_URL: 'grafana/{trace_id}' },
    message: 'grafana_trace_url must be an http:// or https:// URL',
  },
  { name: 'bad http addr', env: { SVC__HTTP_ADDR: '8090' }, message: 'http_addr must be host:port with a port within 0..=65535, got "8090"' },
  {
    name: 'bad metrics port',
    env: { SVC__WRITER__METRICS_ADDR: '0.0.0.0:70000' },
    message: 'writer.metrics_addr must be host:port with a port within 0..=65535, got "0.0.0.0:70000"',
  },
];

for (const { name, env, message, component = 'all-in-one' } of cases) {
  test(`${component}: ${name} -> ${message}`, () => {
    assert.throws(() => loadSettings(component, env), { name: 'ConfigError', message });
  });
}

interface FileCase {
  name: string;
  toml: string;
  message: string;
}

const SECRET_URL = 'https://hooks.example/T000/secret-token';

const fileCases: FileCase[] = [
  { name: 'target without name', toml: `[[notifier.targets]]\nkind = "webhook"\nurl = "${SECRET_URL}"`, message: 'notifier.targets[0].name is required' },
  {
    name: 'target with bad kind',
    toml: `[[notifier.targets]]\nname = "a"\nkind = "email"\nurl = "${SECRET_URL}"`,
    message: 'notifier.targets[0].kind must be webhook or chat',
  },
  { name: 'target without url', toml: '[[notifier.targets]]\nname = "a"\nkind = "chat"', message: 'notifier.targets[0].url is required' },
  {
    name: 'target with bad url',
    toml: '[[notifier.targets]]\nname = "a"\nkind = "chat"\nurl = "ftp://secret-token@x/"',
    message: 'notifier.targets[0].url must be an http:// or https:// URL',
  },
  {
    name: 'targets sharing a name',
    toml: `[[notifier.targets]]\nname = "a"\nkind = "chat"\nurl = "${SECRET_URL}"\n[[notifier.targets]]\nname = "a"\nkind = "webhook"\nurl = "${SECRET_URL}"`,
    message: 'notifier.targets[1].name "a" is used by another target',
  },
  {
    name: 'targets not tables',
    toml: `[notifier]\ntargets = ["${SECRET_URL}"]`,
    message: 'notifier.targets[0] must be a table, got string "https://hooks.example/T000/secret-token"',
  },
  { name: 'unknown alert kind', toml: '[notifier]\nkinds = ["new", "boom"]', message: 'notifier.kinds[1] must be new, spike or silence' },
  { name: 'metric target without job', toml: '[[metric_targets]]\nurl = "http://w:9100/metrics"', message: 'metric_targets[0].job is required' },
  {
    name: 'auth ttl as a number',
    toml: '[auth]\nenabled = true\nusername = "a"\nsession_ttl = 3600',
    message: 'auth.session_ttl must be a string, got integer `3600`',
  },
];

for (const { name, toml, message } of fileCases) {
  test(`file: ${name} -> ${message}`, () => {
    assert.throws(
      () => loadSettings('all-in-one', files.env(toml)),
      (error: Error) => {
        assert.equal(error.name, 'ConfigError');
        assert.equal(error.message, message);
        // A wrongly shaped item may be echoed, but never a target URL from a url field.
        if (!name.includes('not tables')) assert.doesNotMatch(error.message, /secret-token/);
        return true;
      },
    );
  });
}

test('a valid auth setup is accepted and decoded', () => {
  const s = loadSettings('api', { ...SPLIT_REQUIRED, ...AUTH_ON, SVC__AUTH__SESSION_KEY: SESSION_KEY, SVC__AUTH__SESSION_TTL: '365d' });
  assert.equal(s.auth.enabled, true);
  assert.equal(s.auth.username, 'admin');
  assert.equal(s.auth.password_hash, PASSWORD_HASH);
  assert.equal(s.auth.session_ttl_secs, 365 * 86400);
  assert.deepEqual(s.auth.session_key, Buffer.alloc(32, 1));
});

test("the contract's example hash shape and URL-safe, unpadded session keys are accepted", () => {
  const defaultCost = hashSync('pw', { memoryCost: 19456, timeCost: 2, parallelism: 1 });
  assert.match(defaultCost, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  const urlSafeKey = Buffer.alloc(33, 0xfb).toString('base64url');
  const s = loadSettings('all-in-one', { ...AUTH_ON, SVC__AUTH__PASSWORD_HASH: defaultCost, SVC__AUTH__SESSION_KEY: urlSafeKey });
  assert.deepEqual(s.auth.session_key, Buffer.alloc(33, 0xfb));
});

test('auth keys are not validated while auth is off, and bad ones fall back to defaults', () => {
  const env = {
    SVC__AUTH__USERNAME: 'a|b',
    SVC__AUTH__PASSWORD_HASH: 'hunter2',
    SVC__AUTH__SESSION_TTL: '0s',
    SVC__AUTH__SESSION_KEY: 'short',
  };
  const s = loadSettings('all-in-one', env);
  assert.equal(s.auth.enabled, false);
  assert.equal(s.auth.password_hash, '');
  assert.equal(s.auth.session_ttl_secs, 43200);
  assert.equal(s.auth.session_key, null);
});

test('auth is validated only by the components that serve the API', () => {
  const badAuth = { ...SPLIT_REQUIRED, SVC__AUTH__ENABLED: 'true', SVC__AUTH__USERNAME: 'a:b' };
  for (const component of ['ingest', 'writer', 'assembler', 'logminer', 'notifier', 'tool'] as const) {
    assert.doesNotThrow(() => loadSettings(component, badAuth), component);
  }
  for (const component of ['api', 'all-in-one'] as const) {
    assert.throws(() => loadSettings(component, badAuth), { message: "auth.username must not contain '|' or ':'" }, component);
  }
});

test('fingerprinter gpu stops only the components that run the miner', () => {
  const gpu = { ...SPLIT_REQUIRED, SVC__LOGMINER__FINGERPRINTER: 'gpu' };
  const message = 'logminer.fingerprinter gpu needs a build with the gpu feature';
  assert.throws(() => loadSettings('logminer', gpu), { message });
  assert.throws(() => loadSettings('all-in-one', gpu), { message });
  for (const component of ['ingest', 'writer', 'assembler', 'notifier', 'api', 'tool'] as const) {
    assert.doesNotThrow(() => loadSettings(component, gpu), component);
  }
});
