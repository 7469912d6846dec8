import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import { checkResponses } from '../response-check.js';
import { configRoutes, registerConfigRoute } from './config.js';

describe('GET /api/v1/config', () => {
  it('returns the contract Config shape with empty URLs as null', async () => {
    const app = Fastify();
    checkResponses(app);
    registerConfigRoute(app, { trace_viewer_url: '', grafana_trace_url: '', dashboard_url: '', auth_enabled: false, infra_services: ['flagd'] });
    const response = await app.inject({ method: 'GET', url: '/api/v1/config' });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^application\/json/);
    assert.deepEqual(response.json(), { trace_viewer_url: null, dashboard_url: null, auth_enabled: false, infra_services: ['flagd'], grafana_trace_url: null });
    await app.close();
  });

  it('passes configured URLs, auth and an empty infra list through', async () => {
    const app = Fastify();
    checkResponses(app);
    configRoutes({
      trace_viewer_url: 'https://jaeger.example.com/trace/',
      grafana_trace_url: 'https://grafana.example.com/explore?left=%7B%22queries%22:%5B%7B%22query%22:%22{trace_id}%22%7D%5D%7D',
      dashboard_url: 'https://grafana.example.com/d/svc',
      auth_enabled: true,
      infra_services: [],
    })(app, undefined as never);
    const response = await app.inject({ method: 'GET', url: '/api/v1/config' });
    assert.deepEqual(response.json(), {
      trace_viewer_url: 'https://jaeger.example.com/trace/',
      grafana_trace_url: 'https://grafana.example.com/explore?left=%7B%22queries%22:%5B%7B%22query%22:%22{trace_id}%22%7D%5D%7D',
      dashboard_url: 'https://grafana.example.com/d/svc',
      auth_enabled: true,
      infra_services: [],
    });
    await app.close();
  });

  it('answers HEAD like GET', async () => {
    const app = Fastify({ exposeHeadRoutes: true });
    registerConfigRoute(app, { trace_viewer_url: '', grafana_trace_url: '', dashboard_url: '', auth_enabled: false, infra_services: [] });
    const response = await app.inject({ method: 'HEAD', url: '/api/v1/config' });
    assert.equal(response.statusCode, 200);
    await app.close();
  });
});
