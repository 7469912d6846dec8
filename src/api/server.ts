import Fastify, { type FastifyInstance } from 'fastify';
import { Registry } from 'prom-client';
import type { AuthSettings } from '../config/settings.js';
import { listenError } from '../config/listen-error.js';
import type { Component } from '../model/component.js';
import type { Logger } from '../util/log.js';
import { stringifyJson } from '../util/json.js';
import { registerAuth } from './auth/auth.js';
import { ApiError, classifyError, notFound, sendError, unsupportedMediaType } from './errors.js';
import { createApiMetrics } from './metrics.js';
import type { TraceRepo } from './repo.js';
import { createRequestContext, type RequestContext } from './request-context.js';
import { checkResponses } from './response-check.js';
import { registerTraceRoutes } from './routes/traces.js';
import { answerClientError, answerFrameworkError, isApiPath } from './connection-errors.js';

export interface ApiSettings {
  listen: { host: string; port: number };
  /** The setting `listen` came from, named when it cannot be bound (default `http_addr`). */
  listenSetting?: string;
  queryTimeoutSecs: number;
  /** Absent: authentication off. */
  auth?: AuthSettings;
}

const AUTH_OFF: AuthSettings = { enabled: false, username: '', password_hash: '', session_ttl_secs: 43_200, session_key: null, secure_cookie: false };

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
  /** Tests: hold every reply of a declared route to its declared response (response-check.ts). */
  checkResponses?: boolean;
  /** The clock of the API's own routes (trace and service reads); default Date.now. */
  nowMs?: () => number;
}

export interface Api extends Component {
  port(): number;
  /** For in-process tests (fastify inject). */
  app: FastifyInstance;
  /** Every route registered (method and fastify path), for the docs' drift test. */
  routes(): readonly { method: string; url: string }[];
}

/** The API component: JSON API, /healthz and /metrics on one port. */
export function createApi(settings: ApiSettings, deps: ApiDeps): Api {
  const logger = deps.logger.child({ component: 'api' });
  const metrics = createApiMetrics(deps.registry);
  const context = createRequestContext(settings.queryTimeoutSecs);
  // Path parameters may be 200 characters, percent-encoded up to 12 bytes each.
  const app = Fastify({
    logger: false,
    bodyLimit: 1024 * 1024,
    return503OnClosing: true,
    exposeHeadRoutes: true,
    routerOptions: { maxParamLength: 2400 },
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkError,
  });
  let boundPort = 0;
  const registered: { method: string; url: string }[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) registered.push({ method, url: route.url });
  });

  app.setReplySerializer((payload) => stringifyJson(payload));
  if (deps.checkResponses === true) checkResponses(app);

  app.addHook('onRequest', async (request, reply) => {
    if (isApiPath(request.url)) context.arm(request, reply);
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
    if ((error as { code?: string }).code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      void sendError(reply, unsupportedMediaType());
      return;
    }
    // Fastify's own client errors (bad JSON body, body too large) keep their status.
    const fastifyStatus = (error as { statusCode?: number }).statusCode;
    if (apiError.status === 500 && fastifyStatus !== undefined && fastifyStatus >= 400 && fastifyStatus < 500) {
      void sendError(reply, new ApiError(fastifyStatus, (error as Error).message.toLowerCase()));
      return;
    }
    void sendError(reply, apiError);
  });

  app.setNotFoundHandler((_request, reply) => void sendError(reply, notFound()));

  // JSON bodies may be empty (logout carries the JSON content type and no body); routes validate
  // what they need. Anything else with a body gets fastify's 415, mapped to our message above.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(Object.assign(new Error('body is not valid json'), { statusCode: 400 }), undefined);
    }
  });

  registerAuth(app, settings.auth ?? AUTH_OFF, { logger });

  app.get('/healthz', async (_request, reply) => reply.type('text/plain').send('ok'));
  app.get('/metrics', async (_request, reply) => {
    const merged = Registry.merge([deps.registry, ...deps.metricRegistries.filter((registry) => registry !== deps.registry)]);
    return reply.type(merged.contentType).send(await merged.metrics());
  });

  registerTraceRoutes(app, deps.traces, context, deps.nowMs ?? Date.now);
  for (const register of deps.routes ?? []) register(app, context);

  return {
    app,
    async start() {
      try {
        await app.listen({ host: settings.listen.host, port: settings.listen.port });
      } catch (error) {
        throw listenError(settings.listenSetting ?? 'http_addr', settings.listen, error);
      }
      const address = app.server.address();
      boundPort = typeof address === 'object' && address !== null ? address.port : settings.listen.port;
      logger.info({ address: `${settings.listen.host}:${boundPort}` }, 'api listening');
    },
    async close() {
      await app.close();
    },
    port: () => boundPort,
    routes: () => registered,
  };
}
