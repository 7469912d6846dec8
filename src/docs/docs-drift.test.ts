/**
 * The user docs (docs/*.md) name every route the server registers and every setting the loader
 * reads, so the two cannot drift apart: a route or setting added without its docs fails here.
 * Routes come from the real fastify instance built as the CLI builds it (auth on, so the auth
 * routes exist) and from the OTLP/HTTP listener's route table; settings from the loader itself,
 * by recording every path it looks up while loading each component's settings.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashSync } from '@node-rs/argon2';
import { Registry } from 'prom-client';
import { buildApi } from '../cli/components.js';
import { createBus } from '../cli/bus.js';
import { loadSettings } from '../config/load.js';
import type { ComponentName } from '../config/settings.js';
import { SettingSource } from '../config/sources.js';
import { REJECT_REASONS } from '../ingest/http-body.js';
import { OTLP_HTTP_ROUTES } from '../ingest/http-server.js';
import { RETRY_REASONS } from '../ingest/refusal.js';
import { createStore } from '../store/create-store.js';
import { tempDataDir } from '../testing/all-in-one.js';
import { createLogger } from '../util/log.js';
import { everyMetric, METRICS_TABLE_BEGIN, METRICS_TABLE_END, renderMetricsTable } from './metrics-reference.test-support.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const DOCS_DIR = join(ROOT, 'docs');

/** Every docs page, as one text (other pages, e.g. logs.md or mcp.md, count too). */
function docsText(): string {
  return readdirSync(DOCS_DIR)
    .filter((name) => name.endsWith('.md'))
    .map((name) => readFileSync(join(DOCS_DIR, name), 'utf8'))
    .join('\n');
}

/** `GET /api/v1/stories/:storyId` as the docs write it: `GET /api/v1/stories/{story_id}`. */
function asDocumented(method: string, url: string): string {
  return `${method} ${url.replace(/:(\w+)/g, (_, name: string) => `{${name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}}`)}`;
}

const data = tempDataDir('svc-docs-drift-');
after(() => data.cleanup());

test('every route of the API and of the OTLP/HTTP listener is documented as `METHOD /path` in docs/', async () => {
  const env = {
    SVC__EMBEDDED__DATA_DIR: data.dir,
    SVC__AUTH__ENABLED: 'true',
    SVC__AUTH__USERNAME: 'admin',
    SVC__AUTH__PASSWORD_HASH: hashSync('x', { memoryCost: 1024, timeCost: 1, parallelism: 1 }),
  };
  const settings = loadSettings('all-in-one', env);
  const logger = createLogger('silent');
  const store = await createStore(settings);
  const bus = await createBus(settings, logger, 'docs-drift', new Registry());
  const registry = new Registry();
  const api = buildApi(settings, { bus, store, registry, logger, metricRegistries: [registry] });
  try {
    await api.app.ready();
    const routes = api.routes().filter((route) => route.method !== 'HEAD');
    assert.ok(
      routes.some((route) => route.url === '/api/v1/auth/login'),
      'auth routes registered',
    );
    const listed = [...routes.map((route) => asDocumented(route.method, route.url)), ...OTLP_HTTP_ROUTES.map((route) => asDocumented(route.method, route.url))];
    const text = docsText();
    const missing = [...new Set(listed)].filter((route) => !text.includes(`\`${route}\``));
    assert.deepEqual(missing, [], `routes missing from docs/*.md (write them as \`METHOD /path\`)`);
  } finally {
    await api.app.close();
    await bus.close();
    await store.close();
  }
});

test('every setting the loader reads, for every component, is documented as `name` in docs/', () => {
  const paths = new Set<string>();
  const lookup = SettingSource.prototype.lookup;
  SettingSource.prototype.lookup = function (this: SettingSource, path: string) {
    paths.add(path);
    return lookup.call(this, path);
  };
  try {
    const env = { SVC__KAFKA__BROKERS: '127.0.0.1:9092', SVC__CLICKHOUSE__URL: 'http://127.0.0.1:8123' };
    const components: ComponentName[] = ['all-in-one', 'ingest', 'writer', 'assembler', 'logminer', 'notifier', 'api', 'tool'];
    for (const component of components) loadSettings(component, env);
  } finally {
    SettingSource.prototype.lookup = lookup;
  }
  assert.ok(paths.has('kafka.brokers') && paths.has('embedded.data_dir'), 'the loader was observed');
  const text = docsText();
  const missing = [...paths].filter((path) => !text.includes(`\`${path}\``));
  assert.deepEqual(missing, [], 'settings missing from docs/*.md (write them as `name`)');
});

/** The row of docs/ingest.md's metrics table that describes `metric`. */
function ingestMetricRow(metric: string): string {
  const row = readFileSync(join(DOCS_DIR, 'ingest.md'), 'utf8')
    .split('\n')
    .find((line) => line.startsWith(`| \`${metric}{`));
  assert.ok(row !== undefined, `docs/ingest.md has a row for ${metric}`);
  return row;
}

test('every reason label ingest counts refusals under is listed in docs/ingest.md', () => {
  const cases: [string, readonly string[]][] = [
    ['svc_ingest_backpressure_total', RETRY_REASONS],
    ['svc_ingest_rejected_requests_total', REJECT_REASONS],
  ];
  for (const [metric, reasons] of cases) {
    const row = ingestMetricRow(metric);
    assert.deepEqual(
      reasons.filter((reason) => !row.includes(`\`${reason}\``)),
      [],
      `reasons of ${metric} missing from its row in docs/ingest.md`,
    );
  }
});

test('docs/metrics.md lists every metric of every component, with its type, labels and meaning, as the registry has them', () => {
  const page = join(DOCS_DIR, 'metrics.md');
  const text = readFileSync(page, 'utf8');
  const begin = text.indexOf(METRICS_TABLE_BEGIN);
  const end = text.indexOf(METRICS_TABLE_END);
  assert.ok(begin >= 0 && end > begin, 'docs/metrics.md has the generated table between its markers');
  const documented = text.slice(begin + METRICS_TABLE_BEGIN.length, end).trim();
  const generated = renderMetricsTable();
  if (process.env.SVC_WRITE_DOCS === '1' && documented !== generated) {
    writeFileSync(page, `${text.slice(0, begin + METRICS_TABLE_BEGIN.length)}\n${generated}\n${text.slice(end)}`);
    return;
  }
  assert.equal(
    documented,
    generated,
    'docs/metrics.md differs from the metric registry: SVC_WRITE_DOCS=1 node --test dist/src/docs/docs-drift.test.js rewrites its table',
  );
  // Each metric once: two components must not register the same name.
  const names = everyMetric().map((metric) => metric.name);
  assert.deepEqual(
    names.filter((name, index) => names.indexOf(name) !== index),
    [],
  );
});

test('every metric a source file declares is in the generated reference (a new metric set must be added to it)', () => {
  const declared = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.test-support.ts')) {
        for (const match of readFileSync(path, 'utf8').matchAll(/name: ['`](svc_[a-z0-9_]+)['`]/g)) declared.add(match[1]!);
      }
    }
  };
  walk(join(ROOT, 'src'));
  assert.ok(declared.size > 40, `found ${declared.size} metric names in the sources`);
  const referenced = new Set(everyMetric().map((metric) => metric.name));
  assert.deepEqual(
    [...declared].filter((name) => !referenced.has(name)).sort(),
    [],
    'metrics missing from METRIC_SETS in src/docs/metrics-reference.test-support.ts',
  );
});
