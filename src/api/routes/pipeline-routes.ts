/** The Pipeline page's API routes as one module for createApi's `routes`. */

import type { Counter, Registry } from 'prom-client';
import type { Bus } from '../../model/bus.js';
import type { Store } from '../../model/store.js';
import type { Logger } from '../../util/log.js';
import type { RouteModule } from '../server.js';
import { createLagReader, registerPipelineLagRoute } from './pipeline-lag.js';
import { registerPipelineSeriesRoute } from './pipeline-series.js';

const LAG_ERRORS_METRIC = 'svc_api_lag_errors_total';

export interface PipelineRouteDeps {
  store: Store;
  /** The bus whose consumer groups the lag table shows (the in-process one in all-in-one). */
  bus: Pick<Bus, 'groups' | 'offsets'>;
  /** The API's registry: createApi has registered `svc_api_lag_errors_total` in it. */
  registry: Registry;
  logger: Logger;
  nowMs?: () => number;
}

/** GET /api/v1/pipeline/series and GET /api/v1/pipeline/lag. */
export function createPipelineRoutes(deps: PipelineRouteDeps): RouteModule {
  const nowMs = deps.nowMs ?? Date.now;
  return (app, context) => {
    // Looked up when routes register: createApi creates its metrics first.
    const lagErrors = deps.registry.getSingleMetric(LAG_ERRORS_METRIC) as Counter | undefined;
    if (lagErrors === undefined) throw new Error(`${LAG_ERRORS_METRIC} is not in the registry given to the pipeline routes; pass the API's registry`);
    const reader = createLagReader({ bus: deps.bus, lagErrors, logger: deps.logger.child({ component: 'api' }), nowMs });
    registerPipelineSeriesRoute(app, { store: deps.store, nowMs }, context);
    registerPipelineLagRoute(app, reader);
  };
}
