/**
 * The API's route map: each JSON route by name (its path under /api/v1/, `:name` for a path
 * parameter) with its URL and declared 200 response. The server registers each route from its
 * entry (declareRoute), MCP's typed caller (src/mcp/api-caller.ts) and the web app's `useApi`
 * (web/src/api/) read replies as the entry's type, so a changed declaration fails `tsc` in all
 * three. Imports nothing but zod and the schemas: the web app imports it type-only.
 */

import { z } from 'zod';
import { incidents } from './incidents.js';
import { logAlert, logSearchPage, logSeries, logTemplate, logTemplateDetail, silenceSetting } from './logs.js';
import { appConfig, lagRows, pipelineSeries } from './pipeline.js';
import { overview, searchResult, storiesSeries, story, storyGroup, storyGroupDetail, traceSearchRow } from './stories.js';
import { serviceMap, serviceRed, services, trace, traceLogTemplate } from './traces.js';

/** One route's entry: its fastify URL and its declared response. */
interface RouteEntry {
  url: string;
  response: z.ZodType;
}

export const API_ROUTES = {
  config: { url: '/api/v1/config', response: appConfig },
  overview: { url: '/api/v1/overview', response: overview },
  search: { url: '/api/v1/search', response: searchResult },
  incidents: { url: '/api/v1/incidents', response: incidents },
  'story-groups': { url: '/api/v1/story-groups', response: z.array(storyGroup) },
  'story-groups/:fingerprint': { url: '/api/v1/story-groups/:fingerprint', response: storyGroupDetail },
  'stories/series': { url: '/api/v1/stories/series', response: storiesSeries },
  'stories/:storyId': { url: '/api/v1/stories/:storyId', response: story },
  'traces/search': { url: '/api/v1/traces/search', response: z.array(traceSearchRow) },
  'traces/:traceId': { url: '/api/v1/traces/:traceId', response: trace },
  'traces/:traceId/log-templates': { url: '/api/v1/traces/:traceId/log-templates', response: z.array(traceLogTemplate) },
  services: { url: '/api/v1/services', response: services },
  // fastify's wildcard: a service name may hold a '/'.
  'services/:service': { url: '/api/v1/services/*', response: serviceRed },
  'service-map': { url: '/api/v1/service-map', response: serviceMap },
  'log-alerts': { url: '/api/v1/log-alerts', response: z.array(logAlert) },
  'log-templates': { url: '/api/v1/log-templates', response: z.array(logTemplate) },
  'log-templates/:id': { url: '/api/v1/log-templates/:id', response: logTemplateDetail },
  'log-templates/:id/silence': { url: '/api/v1/log-templates/:id/silence', response: silenceSetting },
  'logs/search': { url: '/api/v1/logs/search', response: logSearchPage },
  'logs/series': { url: '/api/v1/logs/series', response: logSeries },
  'pipeline/series': { url: '/api/v1/pipeline/series', response: pipelineSeries },
  'pipeline/lag': { url: '/api/v1/pipeline/lag', response: lagRows },
} as const satisfies Record<string, RouteEntry>;

export type RouteName = keyof typeof API_ROUTES;

/** A route's reply as the server holds it (64-bit values may be bigints). */
export type RouteReply<N extends RouteName> = z.output<(typeof API_ROUTES)[N]['response']>;
