import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { declareRoute } from '../declared-route.js';
import { API_ROUTES } from '../schemas/routes.js';
import type { appConfig } from '../schemas/pipeline.js';
import type { RouteModule } from '../server.js';

/** The settings the app needs to decide which links and switches to show. */
export interface AppConfigSettings {
  trace_viewer_url: string;
  grafana_trace_url: string;
  dashboard_url: string;
  auth_enabled: boolean;
  infra_services: readonly string[];
}

/** The contract's Config response. */
export type ConfigResponse = z.output<typeof appConfig>;

/** Builds the Config shape; an empty URL setting means "hide the link", which the contract spells null. */
export function toConfigResponse(config: AppConfigSettings): ConfigResponse {
  return {
    trace_viewer_url: config.trace_viewer_url === '' ? null : config.trace_viewer_url,
    dashboard_url: config.dashboard_url === '' ? null : config.dashboard_url,
    grafana_trace_url: config.grafana_trace_url === '' ? null : config.grafana_trace_url,
    auth_enabled: config.auth_enabled,
    infra_services: [...config.infra_services],
  };
}

/** `GET /api/v1/config`; settings are read once at start-up, so the answer is built once. */
export function registerConfigRoute(app: FastifyInstance, config: AppConfigSettings): void {
  const body = toConfigResponse(config);
  declareRoute(app, { method: 'GET', ...API_ROUTES['config'] }, async () => body);
}

/** The same registration shaped as a `RouteModule` for `createApi({ routes: [...] })`. */
export function configRoutes(config: AppConfigSettings): RouteModule {
  return (app) => registerConfigRoute(app, config);
}
