import { collectDefaultMetrics, Registry } from 'prom-client';
import { loadSettings } from '../config/load.js';
import { parseListenAddr } from '../config/listen-addr.js';
import { createStore } from '../store/create-store.js';
import { migrate } from '../store/migrate.js';
import { createLogger, type Logger } from '../util/log.js';
import type { Settings } from '../config/settings.js';
import type { Store } from '../model/store.js';
import { createBus } from './bus.js';
import { buildApi, buildAssembler, buildIngest, buildLogminer, buildNotifier, buildRecorder, buildWriter } from './components.js';
import { closeInOrder, waitForStopSignal } from './lifecycle.js';
import { logMigrationProgress, warnSkippedStatement } from './migrate.js';
import { ensureTopicsAtStart } from './topics.js';

/** `svc all-in-one`: every component in one process, sharing one store and one bus. */
export async function runAllInOne(env: NodeJS.ProcessEnv): Promise<number> {
  const settings = loadSettings('all-in-one', env);
  const logger = createLogger(settings.log_filter);
  const running = await startAllInOne(settings, logger);
  const signal = await waitForStopSignal(logger);
  logger.info({ signal }, 'stopping: no new exports; draining buffers into storage');
  const clean = await running.stop();
  logger.info({ clean }, 'stopped');
  return clean ? 0 : 1;
}

export interface RunningAllInOne {
  /** The bound ports (a setting's port 0 resolved). */
  apiPort: number;
  grpcPort: number;
  otlpHttpPort: number;
  /** Stops every component in the draining order; resolves true when all closed cleanly. */
  stop(): Promise<boolean>;
}

/** Starts every component (all-in-one, or `svc demo` when it runs its own svc) and logs the ready line. */
export async function startAllInOne(settings: Settings, logger: Logger): Promise<RunningAllInOne> {
  const startedMs = Date.now();
  // What is open so far, closed (last first) when a later step fails: a port in use must stop the
  // process, not leave consumers holding their groups' partitions with nothing serving.
  const opened: [string, () => Promise<void>][] = [];
  const store = await createStore(settings);
  opened.push(['store', () => store.close()]);
  let components;
  try {
    components = await startComponents(settings, store, logger, opened);
  } catch (error) {
    await closeInOrder(logger, opened.reverse());
    throw error;
  }
  const { ingest, api, bus, writer, assembler, logminer, notifier, recorder } = components;
  logger.info(
    {
      api: `${parseListenAddr(settings.http_addr).host}:${api.port()}`,
      grpc: ingest.ports().grpc,
      otlp_http: ingest.ports().http,
      startup_ms: Date.now() - startedMs,
    },
    'svc all-in-one ready',
  );
  return {
    apiPort: api.port(),
    grpcPort: ingest.ports().grpc,
    otlpHttpPort: ingest.ports().http,
    // Ingest first so in-flight exports finish (their acks wait for the writer, or with Kafka for the broker), then the assembler
    // takes the rest of the topic and analyses every open trace, the writer stores what it holds,
    // then the readers and the store.
    stop: () =>
      closeInOrder(logger, [
        ['ingest', () => ingest.close()],
        ['assembler', () => assembler.close()],
        ['logminer', () => logminer.close()],
        ['notifier', () => notifier.close()],
        ['writer', () => writer.close()],
        ['recorder', () => recorder.close()],
        ['api', () => api.close()],
        ['bus', () => bus.close()],
        ['store', () => store.close()],
      ]),
  };
}

/** Migrates, opens the bus and starts every component; each started one is pushed on `opened`. */
async function startComponents(settings: Settings, store: Store, logger: Logger, opened: [string, () => Promise<void>][]) {
  const applied = await migrate(store, undefined, undefined, warnSkippedStatement(logger), logMigrationProgress(logger));
  logger.info({ database: store.database, applied, embedded: settings.clickhouse.url === '' ? settings.embedded.data_dir : undefined }, 'schema ready');

  // An export's acknowledgement is the bus's: synced to the embedded log, or with kafka.brokers the broker's (acks=all).
  const registries = {
    ingest: new Registry(),
    writer: new Registry(),
    assembler: new Registry(),
    logminer: new Registry(),
    notifier: new Registry(),
    api: new Registry(),
  };
  // The embedded bus's figures go with ingest's, whose answers they explain.
  const bus = await createBus(settings, logger, 'svc-all-in-one', registries.ingest);
  opened.push(['bus', () => bus.close()]);
  await ensureTopicsAtStart(bus, settings);

  collectDefaultMetrics({ register: registries.api });

  const writer = buildWriter(settings, { bus, store, registry: registries.writer, logger });
  const assembler = buildAssembler(settings, { bus, store, registry: registries.assembler, logger });
  const logminer = buildLogminer(settings, { bus, store, registry: registries.logminer, logger });
  const notifier = buildNotifier(settings, { bus, store, registry: registries.notifier, logger });
  const api = buildApi(settings, { bus, store, registry: registries.api, logger, metricRegistries: Object.values(registries) });
  // Every component's registry under its job name (`svc-ingest`, ...): recorded from this process, nothing scraped.
  const recorder = buildRecorder(settings, {
    store,
    logger,
    registry: registries.api,
    sources: new Map(Object.entries(registries).map(([name, registry]) => [`svc-${name}`, registry])),
  });
  const ingest = buildIngest(settings, { bus, registry: registries.ingest, logger }, 'otlp_http_addr');

  // Consumers first, ingest last: nothing is accepted before something can store it.
  await writer.start();
  opened.push(['writer', () => writer.close()]);
  await assembler.start();
  opened.push(['assembler', () => assembler.close()]);
  await logminer.start();
  opened.push(['logminer', () => logminer.close()]);
  await notifier.start();
  opened.push(['notifier', () => notifier.close()]);
  await api.start();
  opened.push(['api', () => api.close()]);
  await recorder.start();
  opened.push(['recorder', () => recorder.close()]);
  await ingest.start();
  opened.push(['ingest', () => ingest.close()]);
  return { ingest, api, bus, writer, assembler, logminer, notifier, recorder };
}
