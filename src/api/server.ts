import Fastify, { type FastifyInstance } from 'fastify';
import { Registry } from 'prom-client';
import type { Component } from '../model/component.js';
import type { Logger } from '../util/log.js';
import { stringifyJson } from '../util/json.js';
import { classifyError, notFound } from './errors.js';
import { createApiMetrics } from './metrics.js';
import type { TraceRepo } from './repo.js';
import { createRequestContext, type RequestContext } from './request-context.js';
import { registerTraceRoutes } from './routes/traces.js';

export interface ApiSettings {
  listen: { host: string; port: number };
  queryTimeoutSecs: number;
}

/** A later feature plugs its routes in here with the shared context (window rules, timeouts). */
export type RouteModule = (app: FastifyInstance, context: RequestContext) => void;

export interface ApiDeps {
  traces: TraceRepo;
  /** The API's own registry. */
  registry: Registry;
  /** Every component's registry whose metrics `/metrics` serves (all-in-one serves them all). */
  metricRegistries: Registry[];
  logger: Logger;
  routes?: RouteModule[];
}

export interface Api extends Component {
  port(): number;
  /** For in-process tests (fastify inject). */
  app: FastifyInstance;
}

/** The API component: JSON API, /healthz and /metrics on one port. */
export function createApi(settings: ApiSettings, deps: ApiDeps): Api {
  const logger = deps.logger.child({ component: 'api' });
  const metrics = createApiMetrics(deps.registry);
  const context = createRequestContext(settings.queryTimeoutSecs);
  // Path parameters may be 200 characters, percent-encoded up to 12 bytes each.
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024, return503OnClosing: true, exposeHeadRoutes: true, routerOptions: { maxParamLength: 2400 } });
  let boundPort = 0;

  app.setReplySerializer((payload) => stringifyJson(payload));

  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/api/')) context.arm(request, reply);
  });
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.requestSeconds.observe({ route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  app.setErrorHandler((error, request, reply) => {
    const { apiError, storage } = classifyError(error);
    if (storage) {
      metrics.repoErrors.inc();
      logger.warn({ err: error, url: request.url }, 'storage read failed');
    } else if (apiError.status >= 500) {
      logger.error({ err: error, url: request.url }, 'request failed');
    }
    if (reply.sent) return;
    // Fastify's own client errors (bad JSON body, body too large) keep their status.
    const fastifyStatus = (error as { statusCode?: number }).statusCode;
    if (apiError.status === 500 && fastifyStatus !== undefined && fastifyStatus >= 400 && fastifyStatus < 500) {
      void reply.code(fastifyStatus).send({ error: (error as Error).message.toLowerCase() });
      return;
    }
    void reply.code(apiError.status).send({ error: apiError.message });
  });

  app.setNotFoundHandler((request, reply) => {
    const error = notFound();
    void reply.code(error.status).send({ error: error.message });
  });

  app.get('/healthz', async (_request, reply) => reply.type('text/plain').send('ok'));
  app.get('/metrics', async (_request, reply) => {
    const merged = Registry.merge([deps.registry, ...deps.metricRegistries.filter((registry) => registry !== deps.registry)]);
    return reply.type(merged.contentType).send(await merged.metrics());
  });

  registerTraceRoutes(app, deps.traces, context);
  for (const register of deps.routes ?? []) register(app, context);

  return {
    app,
    async start() {
      await app.listen({ host: settings.listen.host, port: settings.listen.port });
      const address = app.server.address();
      boundPort = typeof address === 'object' && address !== null ? address.port : settings.listen.port;
      logger.info({ address: `${settings.listen.host}:${boundPort}` }, 'api listening');
    },
    async close() {
      await app.close();
    },
    port: () => boundPort,
  };
}
