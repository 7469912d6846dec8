import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { loadSettings } from './load.js';
import type { ComponentName } from './settings.js';
import { SPLIT_REQUIRED, TempConfigFiles } from './config-fixtures.test-support.js';

const files = new TempConfigFiles();
after(() => files.remove());

const BROKERS = { SVC__KAFKA__BROKERS: 'kafka:9092' };
const CLICKHOUSE = { SVC__CLICKHOUSE__URL: 'http://clickhouse:8123' };

const required: { component: ComponentName; env: NodeJS.ProcessEnv; message: string | null }[] = [
  { component: 'ingest', env: {}, message: 'kafka.brokers is required' },
  { component: 'ingest', env: BROKERS, message: null },
  ...(['writer', 'assembler', 'logminer', 'notifier', 'api'] as const).flatMap((component) => [
    { component, env: CLICKHOUSE, message: 'kafka.brokers is required' },
    { component, env: { ...CLICKHOUSE, SVC__KAFKA__BROKERS: '  ' }, message: 'kafka.brokers is required' },
    { component, env: BROKERS, message: 'clickhouse.url is required' },
    { component, env: SPLIT_REQUIRED, message: null },
  ]),
  { component: 'all-in-one', env: {}, message: null },
  { component: 'tool', env: {}, message: null },
];

for (const { component, env, message } of required) {
  test(`${component} with ${Object.keys(env).join(', ') || 'nothing set'}: ${message ?? 'starts'}`, () => {
    if (message === null) assert.doesNotThrow(() => loadSettings(component, env));
    else assert.throws(() => loadSettings(component, env), { name: 'ConfigError', message });
  });
}

test('all-in-one uses a ClickHouse server and Kafka when they are set', () => {
  const s = loadSettings('all-in-one', SPLIT_REQUIRED);
  assert.equal(s.kafka.brokers, 'kafka:9092');
  assert.equal(s.clickhouse.url, 'http://clickhouse:8123');
});

/** A file with a bad value in every section; each component must stop only on its own sections. */
const BROKEN_SECTIONS: { section: string; toml: string; usedBy: ComponentName[] }[] = [
  { section: 'writer', toml: '[writer]\nmax_rows = 0', usedBy: ['writer', 'all-in-one'] },
  { section: 'assembler', toml: '[assembler]\ngap_ms = "soon"', usedBy: ['assembler', 'all-in-one'] },
  { section: 'thresholds', toml: '[thresholds]\nnew_op_presence = 2.0', usedBy: ['assembler', 'all-in-one'] },
  { section: 'logminer', toml: '[logminer]\nbaseline_mode = "weekly"', usedBy: ['logminer', 'all-in-one', 'tool'] },
  { section: 'notifier', toml: '[notifier]\ntimeout_secs = 60', usedBy: ['notifier', 'all-in-one'] },
  { section: 'map', toml: '[map]\ninfra_services = "flagd"', usedBy: ['api', 'all-in-one'] },
  { section: 'api (top level)', toml: 'record_secs = -5', usedBy: ['api', 'all-in-one'] },
  { section: 'grpc_addr', toml: 'grpc_addr = "nowhere"', usedBy: ['ingest', 'all-in-one'] },
  { section: 'otlp_http_addr', toml: 'otlp_http_addr = "nowhere"', usedBy: ['all-in-one'] },
  { section: 'embedded', toml: '[embedded]\ndata_dir = ""', usedBy: ['all-in-one', 'tool'] },
  { section: 'ingest', toml: '[ingest]\nmax_in_flight_requests = 0', usedBy: ['ingest', 'all-in-one'] },
];

const ALL_COMPONENTS: ComponentName[] = ['all-in-one', 'ingest', 'writer', 'assembler', 'logminer', 'notifier', 'api', 'tool'];

for (const { section, toml, usedBy } of BROKEN_SECTIONS) {
  test(`a bad value in ${section} stops only ${usedBy.join(', ')}`, () => {
    for (const component of ALL_COMPONENTS) {
      const env = files.env(toml, SPLIT_REQUIRED);
      if (usedBy.includes(component)) assert.throws(() => loadSettings(component, env), { name: 'ConfigError' }, component);
      else assert.doesNotThrow(() => loadSettings(component, env), component);
    }
  });
}

test('an ignored section keeps its defaults when its values are bad, and its values when they are good', () => {
  const bad = loadSettings('ingest', files.env('[notifier]\ntimeout_secs = 60\nmax_attempts = 3', BROKERS));
  assert.equal(bad.notifier.timeout_secs, 10);
  assert.equal(bad.notifier.max_attempts, 3);
});

test('the [ingest] section is read by the components that run ingest, and ignored (defaults kept) by the others', () => {
  const env = files.env('[ingest]\nmax_in_flight_requests = 8\nmax_in_flight_bytes = 8388608', SPLIT_REQUIRED);
  for (const component of ['ingest', 'all-in-one'] as const) {
    assert.deepEqual(loadSettings(component, env).ingest, { max_in_flight_requests: 8, max_in_flight_bytes: 8388608, max_memory_bytes: 1073741824 }, component);
  }
  const bad = files.env('[ingest]\nmax_in_flight_bytes = 5', SPLIT_REQUIRED);
  assert.equal(loadSettings('writer', bad).ingest.max_in_flight_bytes, 268435456);
});

test('clickhouse.url is optional but still checked where it is used', () => {
  assert.doesNotThrow(() => loadSettings('ingest', { ...BROKERS, SVC__CLICKHOUSE__URL: 'nonsense' }));
  assert.throws(() => loadSettings('all-in-one', { SVC__CLICKHOUSE__URL: 'nonsense' }), {
    message: 'clickhouse.url must be an http:// or https:// URL',
  });
});
