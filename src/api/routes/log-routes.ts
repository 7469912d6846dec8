/** The log feature's API routes as one module for createApi's `routes`. */

import type { Store } from '../../model/store.js';
import { createVersionClock } from '../../util/version-clock.js';
import type { RouteModule } from '../server.js';
import { registerLogAlertsRoute } from './log-alerts.js';
import { registerLogSearchRoutes } from './log-search.js';
import { registerLogSilenceRoute } from './log-silence.js';
import { registerLogTemplateRoutes } from './log-templates.js';

/**
 * Log alerts, log templates, a template's detail and its silence setting, and the log search. `nowMs` injects the
 * clock (tests); default Date.now.
 */
export function createLogRoutes(store: Store, options: { nowMs?: () => number } = {}): RouteModule {
  const nowMs = options.nowMs ?? Date.now;
  // Silence versions strictly increase, so two saves in one millisecond keep their order.
  const versionMs = createVersionClock(nowMs);
  const deps = { store, nowMs };
  return (app, context) => {
    registerLogAlertsRoute(app, deps, context);
    registerLogTemplateRoutes(app, deps, context);
    registerLogSilenceRoute(app, { ...deps, versionMs }, context);
    registerLogSearchRoutes(app, deps, context);
  };
}
