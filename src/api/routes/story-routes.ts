/** The stories feature's API routes as one module for createApi's `routes`. */

import type { Store } from '../../model/store.js';
import type { RouteModule } from '../server.js';
import { registerIncidentRoute } from './incidents.js';
import { registerOverviewRoute } from './overview.js';
import { registerSearchRoute } from './search.js';
import { registerServiceMapRoute } from './service-map.js';
import { registerServiceRedRoute } from './service-red.js';
import { registerStoryGroupRoutes } from './story-groups.js';
import { registerStoryRoutes } from './stories.js';
import { registerTraceLogTemplatesRoute } from './trace-log-templates.js';
import { registerTraceSearchRoute } from './trace-search.js';

/**
 * Story groups, stories, series, overview, trace search, a trace's log templates, service map,
 * service RED series, search and incidents. `nowMs` injects the clock (tests); default Date.now.
 */
export function createStoryRoutes(store: Store, options: { nowMs?: () => number } = {}): RouteModule {
  const deps = { store, nowMs: options.nowMs ?? Date.now };
  return (app, context) => {
    registerStoryGroupRoutes(app, deps, context);
    registerStoryRoutes(app, deps, context);
    registerOverviewRoute(app, deps, context);
    registerTraceSearchRoute(app, deps, context);
    registerTraceLogTemplatesRoute(app, deps, context);
    registerServiceMapRoute(app, deps, context);
    registerServiceRedRoute(app, deps, context);
    registerSearchRoute(app, deps, context);
    registerIncidentRoute(app, deps, context);
  };
}
