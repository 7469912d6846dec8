/**
 * The order in which declared parameters refuse: when a request has several faults, the answer
 * names the same one as before the declarations (the window, clock limits included, before the
 * filters; trace search's duration bounds before its other filters; the pipeline metric before the
 * window; a silence body's shape before its range). No store is read: every request here is refused.
 */

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import type { Store } from '../model/store.js';
import { createLogger } from '../util/log.js';
import type { TraceRepo } from './repo.js';
import { createLogRoutes } from './routes/log-routes.js';
import { createPipelineRoutes } from './routes/pipeline-routes.js';
import { createStoryRoutes } from './routes/story-routes.js';
import { createApi, type Api } from './server.js';

const NOW_MS = 1_764_000_000_000;
const NOW_SECS = NOW_MS / 1000;
const refused = async (): Promise<never> => {
  throw new Error('a refused request reads nothing');
};
const store: Store = { query: refused, exec: refused, insert: refused, insertRaw: refused, database: 'unused', close: async () => undefined };
const repo: TraceRepo = { traceSpans: refused, traceLogs: refused, traceStoryId: refused, services: refused };

let api: Api;
before(async () => {
  const registry = new Registry();
  const logger = createLogger('silent');
  api = createApi(
    { listen: { host: '127.0.0.1', port: 0 }, queryTimeoutSecs: 15 },
    {
      traces: repo,
      registry,
      metricRegistries: [],
      logger,
      routes: [
        createStoryRoutes(store, { nowMs: () => NOW_MS }),
        createLogRoutes(store, { nowMs: () => NOW_MS }),
        createPipelineRoutes({ store, bus: { groups: refused, offsets: refused }, registry, logger, nowMs: () => NOW_MS }),
      ],
    },
  );
  await api.app.ready();
});
after(async () => api.close());

async function error(url: string, init: { method?: 'GET' | 'PUT'; body?: string; type?: string } = {}): Promise<string> {
  const response = await api.app.inject({
    method: init.method ?? 'GET',
    url,
    payload: init.body,
    headers: init.type === undefined ? {} : { 'content-type': init.type },
  });
  assert.equal(response.statusCode, init.type === 'text/plain' ? 415 : 400, `${url}: ${response.body}`);
  return (response.json() as { error: string }).error;
}

describe('declared parameters refuse in order', () => {
  it('names the window, clock limits included, before any filter', async () => {
    assert.equal(await error(`/api/v1/story-groups?kind=bogus&until=${NOW_SECS + 120}`), 'until must be at most 60s in the future');
    assert.equal(await error(`/api/v1/log-alerts?service=${'x'.repeat(201)}&until=${NOW_SECS - 8 * 86_400}`), 'window start must be within the last 7 days');
    assert.equal(await error('/api/v1/logs/search?limit=0&since=8d'), 'since must be within 1s..7d');
    assert.equal(await error('/api/v1/logs/series?until=x&since=x'), 'since must be <n>s, <n>m, <n>h or <n>d');
  });

  it('names filters in the order the routes check them', async () => {
    assert.equal(await error('/api/v1/traces/search?limit=abc&min_ms=10&max_ms=5'), 'min_ms must not exceed max_ms');
    assert.equal(await error('/api/v1/traces/search?max_ms=x&min_ms=y'), 'min_ms must be a whole number of milliseconds');
    assert.equal(await error('/api/v1/logs/search?cursor=x&limit=abc'), 'limit must be within 1..500');
    assert.equal(await error('/api/v1/logs/search?trace_id=x&template_id=x'), 'template_id must be a decimal u64');
    assert.equal(await error('/api/v1/stories/series?kind=error&kind=slow'), 'kind must be given once');
  });

  it('names the pipeline metric and kind before the window', async () => {
    assert.equal(await error('/api/v1/pipeline/series?since=8d'), 'metric is required');
    assert.equal(await error('/api/v1/pipeline/series?metric=up&since=8d'), 'kind must be rate, gauge, q50 or q99');
    assert.equal(await error('/api/v1/pipeline/series?metric=up&kind=rate&labels=a%3Db,a%3Dc&since=8d'), 'labels must not name a twice');
  });

  it('checks a silence body after its content type and id, its shape before its range', async () => {
    const url = '/api/v1/log-templates/123/silence';
    assert.equal(await error('/api/v1/log-templates/x/silence', { method: 'PUT', body: '{}', type: 'text/plain' }), 'content type must be application/json');
    assert.equal(await error('/api/v1/log-templates/x/silence', { method: 'PUT', body: '{}', type: 'application/json' }), 'id must be a decimal u64');
    assert.equal(
      await error(url, { method: 'PUT', body: '{"enabled":true,"minutes":5000,"x":1}', type: 'application/json' }),
      'body must be {enabled: bool, minutes: 1..=1440}',
    );
    assert.equal(
      await error(url, { method: 'PUT', body: '{"minutes":5000,"enabled":"x"}', type: 'application/json' }),
      'body must be {enabled: bool, minutes: 1..=1440}',
    );
    assert.equal(await error(url, { method: 'PUT', body: '{"enabled":true,"minutes":1.5}', type: 'application/json' }), 'minutes must be 1..=1440');
  });
});
