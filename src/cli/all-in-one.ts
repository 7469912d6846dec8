import { fileURLToPath } from 'node:url';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { loadSettings } from '../config/load.js';
import { parseListenAddr } from '../config/listen-addr.js';
import type { Settings } from '../config/settings.js';
import { createApi } from '../api/server.js';
import { configRoutes } from '../api/routes/config.js';
import { staticRoutes } from '../api/static.js';
import { appConfig } from './app-config.js';
import { createStoryRoutes } from '../api/routes/story-routes.js';
import { createLogRoutes } from '../api/routes/log-routes.js';
import { createPipelineRoutes } from '../api/routes/pipeline-routes.js';
import { createRecorder } from '../recorder/recorder.js';
import { createLogminer } from '../logminer/logminer.js';
import { createNotifier } from '../notifier/notifier.js';
import { createAssembler } from '../assembler/assembler.js';
import { createIngest } from '../ingest/ingest.js';
import { MemoryBus } from '../bus/memory/memory-bus.js';
import type { Bus } from '../model/bus.js';
import { createStore } from '../store/create-store.js';
import { migrate } from '../store/migrate.js';
import { createLogger, type Logger } from '../util/log.js';
import { createWriter, WRITER_GROUP } from '../writer/writer.js';
import { otlpCodec } from './codec.js';
import { closeInOrder, waitForStopSignal } from './lifecycle.js';
import { createSignalSink, createTraceRepo } from './store-adapters.js';
import { topicSpecs } from './topics.js';

/** The built web app, beside the compiled server in the package (dist/src/cli -> web/dist). */
const WEB_DIST_DIR = fileURLToPath(new URL('../../../web/dist', import.meta.url));

/** How much the in-process bus may hold for consumers before ingest answers "retry later". */
const MEMORY_BUS_MAX_BYTES = 256 * 1024 * 1024;

/** `svc all-in-one`: every component in one process, sharing one store and one bus. */
export async function runAllInOne(env: NodeJS.ProcessEnv): Promise<number> {
  const settings = loadSettings('all-in-one', env);
  const logger = createLogger(settings.log_filter);
  const startedMs = Date.now();

  const store = await createStore(settings);
  const applied = await migrate(store);
  logger.info({ database: store.database, applied, embedded: settings.clickhouse.url === '' ? settings.embedded.data_dir : undefined }, 'schema ready');

  const bus = await createBus(settings, logger);
  await bus.ensureTopics(topicSpecs(settings));

  const registries = { ingest: new Registry(), writer: new Registry(), assembler: new Registry(), logminer: new Registry(), notifier: new Registry(), api: new Registry() };
  collectDefaultMetrics({ register: registries.api });

  const writer = createWriter(
    { writer: settings.writer, topic: settings.kafka.topic },
    {
      bus,
      sink: createSignalSink(store),
      decodeSpans: otlpCodec.decodeTracesProto,
      decodeLogs: otlpCodec.decodeLogsProto,
      registry: registries.writer,
      logger,
    },
  );
  const assembler = createAssembler(
    { assembler: settings.assembler, thresholds: settings.thresholds, topic: settings.kafka.topic, maxRecordBytes: settings.kafka.max_record_bytes },
    { bus, store, registry: registries.assembler, logger },
  );
  const logminer = createLogminer({ logminer: settings.logminer, logsTopic: settings.kafka.logs_topic }, { bus, store, registry: registries.logminer, logger });
  const notifier = createNotifier({ notifier: settings.notifier }, { bus, store, registry: registries.notifier, logger });
  const api = createApi(
    { listen: parseListenAddr(settings.http_addr), queryTimeoutSecs: settings.query_timeout_secs, auth: settings.auth },
    { traces: createTraceRepo(store, settings.query_timeout_secs), registry: registries.api, metricRegistries: Object.values(registries), logger, routes: [createStoryRoutes(store), createLogRoutes(store), configRoutes(appConfig(settings)), createPipelineRoutes({ store, bus, registry: registries.api, logger }), staticRoutes(WEB_DIST_DIR)] },
  );
  // Every component's registry under its job name (`svc-ingest`, ...): recorded from this process, nothing scraped.
  const recorder = createRecorder(
    { record_secs: settings.record_secs, metric_targets: settings.metric_targets },
    { store, logger, registry: registries.api, sources: new Map(Object.entries(registries).map(([name, registry]) => [`svc-${name}`, registry])) },
  );
  const ingest = createIngest(
    { grpcAddr: parseListenAddr(settings.grpc_addr), httpAddr: parseListenAddr(settings.otlp_http_addr), kafka: settings.kafka },
    { bus, codec: otlpCodec, registry: registries.ingest, logger },
  );

  // Consumers first, ingest last: nothing is accepted before something can store it.
  await writer.start();
  await assembler.start();
  await logminer.start();
  await notifier.start();
  await api.start();
  await recorder.start();
  await ingest.start();
  logger.info(
    { api: `${parseListenAddr(settings.http_addr).host}:${api.port()}`, grpc: ingest.ports().grpc, otlp_http: ingest.ports().http, startup_ms: Date.now() - startedMs },
    'svc all-in-one ready',
  );

  const signal = await waitForStopSignal(logger);
  logger.info({ signal }, 'stopping: no new exports; draining buffers into storage');
  // Ingest first so in-flight exports finish (their acks wait for the writer), then the assembler
  // takes the rest of the topic and analyses every open trace, the writer stores what it holds,
  // then the readers and the store.
  const clean = await closeInOrder(logger, [
    ['ingest', () => ingest.close()],
    ['assembler', () => assembler.close()],
    ['logminer', () => logminer.close()],
    ['notifier', () => notifier.close()],
    ['writer', () => writer.close()],
    ['recorder', () => recorder.close()],
    ['api', () => api.close()],
    ['bus', () => bus.close()],
    ['store', () => store.close()],
  ]);
  logger.info({ clean }, 'stopped');
  return clean ? 0 : 1;
}

async function createBus(settings: Settings, logger: Logger): Promise<Bus> {
  if (settings.kafka.brokers !== '') {
    throw new Error('kafka.brokers is set, but the Kafka bus is not built yet; unset it to use the in-process bus');
  }
  return new MemoryBus({
    durableGroups: { [settings.kafka.topic]: WRITER_GROUP },
    maxBufferedBytes: MEMORY_BUS_MAX_BYTES,
    onConsumerError: (group, error) => logger.error({ err: error, group }, 'consumer batch failed; redelivering from the last commit'),
  });
}
