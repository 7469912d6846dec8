import { createJaegerRoutes } from '../api/jaeger/routes.js';
import { fileURLToPath } from 'node:url';
import type { Registry } from 'prom-client';
import { parseListenAddr } from '../config/listen-addr.js';
import type { Settings } from '../config/settings.js';
import { createApi, type Api } from '../api/server.js';
import { configRoutes } from '../api/routes/config.js';
import { staticRoutes } from '../api/static.js';
import { createStoryRoutes } from '../api/routes/story-routes.js';
import { createLogRoutes } from '../api/routes/log-routes.js';
import { createPipelineRoutes } from '../api/routes/pipeline-routes.js';
import { mcpRoutes } from '../mcp/http-route.js';
import { createRecorder, type Recorder } from '../recorder/recorder.js';
import { createLogminer } from '../logminer/logminer.js';
import { createNotifier } from '../notifier/notifier.js';
import { createAssembler } from '../assembler/assembler.js';
import { createIngest, type Ingest } from '../ingest/ingest.js';
import type { Bus } from '../model/bus.js';
import type { Component } from '../model/component.js';
import type { Store } from '../model/store.js';
import type { Logger } from '../util/log.js';
import { createWriter } from '../writer/writer.js';
import { appConfig } from './app-config.js';
import { otlpCodec } from './codec.js';
import { createTraceRepo } from '../api/trace-repo.js';
import { createSignalSink } from './store-adapters.js';

/**
 * One builder per component from the validated settings, shared by all-in-one and the split
 * subcommands so that both run the same composition.
 */

/** The built web app, beside the compiled server in the package (dist/src/cli -> web/dist). */
const WEB_DIST_DIR = fileURLToPath(new URL('../../../web/dist', import.meta.url));

export interface BuildDeps {
  bus: Bus;
  store: Store;
  registry: Registry;
  logger: Logger;
}

export function buildWriter(settings: Settings, deps: BuildDeps): Component {
  return createWriter(
    { writer: settings.writer, topic: settings.kafka.topic },
    { bus: deps.bus, sink: createSignalSink(deps.store), registry: deps.registry, logger: deps.logger },
  );
}

export function buildAssembler(settings: Settings, deps: BuildDeps): Component {
  return createAssembler(
    { assembler: settings.assembler, thresholds: settings.thresholds, topic: settings.kafka.topic, maxRecordBytes: settings.kafka.max_record_bytes },
    deps,
  );
}

export function buildLogminer(settings: Settings, deps: BuildDeps): Component {
  return createLogminer({ logminer: settings.logminer, logsTopic: settings.kafka.logs_topic }, deps);
}

export function buildNotifier(settings: Settings, deps: BuildDeps): Component {
  return createNotifier({ notifier: settings.notifier }, deps);
}

/** The API on http_addr; `/metrics` serves `metricRegistries` (all of them in all-in-one, its own in split mode). */
export function buildApi(settings: Settings, deps: BuildDeps & { metricRegistries: Registry[] }): Api {
  const { store, bus, registry, logger } = deps;
  return createApi(
    { listen: parseListenAddr(settings.http_addr), queryTimeoutSecs: settings.query_timeout_secs, auth: settings.auth },
    {
      traces: createTraceRepo(store, settings.query_timeout_secs),
      registry,
      metricRegistries: deps.metricRegistries,
      logger,
      routes: [
        createStoryRoutes(store),
        createLogRoutes(store),
        createJaegerRoutes(store),
        configRoutes(appConfig(settings)),
        createPipelineRoutes({ store, bus, registry, logger }),
        mcpRoutes(),
        staticRoutes(WEB_DIST_DIR),
      ],
    },
  );
}

/** Records the registries in this process under their job names and scrapes metric_targets. */
export function buildRecorder(
  settings: Settings,
  deps: { store: Store; registry: Registry; logger: Logger; sources: ReadonlyMap<string, Registry> },
): Recorder {
  return createRecorder({ record_secs: settings.record_secs, metric_targets: settings.metric_targets }, deps);
}

/** Ingest on the given OTLP/HTTP address (otlp_http_addr in all-in-one, http_addr for `svc ingest`). */
export function buildIngest(
  settings: Settings,
  deps: { bus: Bus; registry: Registry; logger: Logger },
  httpAddrSetting: 'otlp_http_addr' | 'http_addr',
): Ingest {
  return createIngest(
    {
      grpcAddr: parseListenAddr(settings.grpc_addr),
      httpAddr: parseListenAddr(settings[httpAddrSetting]),
      httpAddrSetting,
      kafka: settings.kafka,
      ingest: settings.ingest,
    },
    { ...deps, codec: otlpCodec },
  );
}
