import { collectDefaultMetrics, Registry } from 'prom-client';
import { loadSettings } from '../config/load.js';
import type { Settings } from '../config/settings.js';
import type { Bus } from '../model/bus.js';
import type { Component } from '../model/component.js';
import type { Store } from '../model/store.js';
import { createStore } from '../store/create-store.js';
import { createLogger, type Logger } from '../util/log.js';
import { createBus } from './bus.js';
import { buildApi, buildAssembler, buildIngest, buildLogminer, buildNotifier, buildRecorder, buildWriter, type BuildDeps } from './components.js';
import { closeInOrder, waitForStopSignal } from './lifecycle.js';
import { startMetricsServer } from './metrics-server.js';
import { topicSpecs } from './topics.js';

export type SplitComponent = 'ingest' | 'writer' | 'assembler' | 'logminer' | 'notifier' | 'api';
type Consumer = 'writer' | 'assembler' | 'logminer' | 'notifier';

const CONSUMERS: Record<Consumer, { build: (settings: Settings, deps: BuildDeps) => Component; metricsAddr: (settings: Settings) => string }> = {
  writer: { build: buildWriter, metricsAddr: (settings) => settings.writer.metrics_addr },
  assembler: { build: buildAssembler, metricsAddr: (settings) => settings.assembler.metrics_addr },
  logminer: { build: buildLogminer, metricsAddr: (settings) => settings.logminer.metrics_addr },
  notifier: { build: buildNotifier, metricsAddr: (settings) => settings.notifier.metrics_addr },
};

export function isSplitComponent(name: string): name is SplitComponent {
  return name === 'ingest' || name === 'api' || Object.hasOwn(CONSUMERS, name);
}

interface Running {
  /** Fields of the ready log line (bound addresses). */
  ready: Record<string, unknown>;
  /** Close steps in order: the component first (it drains), then what it used. */
  steps: [string, () => Promise<void>][];
}

/** `svc ingest|writer|assembler|logminer|notifier|api`: one component against Kafka (and a ClickHouse server). */
export async function runSplit(component: SplitComponent, env: NodeJS.ProcessEnv): Promise<number> {
  const settings = loadSettings(component, env);
  const logger = createLogger(settings.log_filter);
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const bus = createBus(settings, logger, `svc-${component}`);
  const cleanup: [string, () => Promise<void>][] = [['bus', () => bus.close()]];
  let running: Running;
  try {
    running = await start(component, settings, { bus, registry, logger }, cleanup);
  } catch (error) {
    await closeInOrder(logger, cleanup.reverse());
    throw error;
  }
  logger.info(running.ready, `svc ${component} ready`);
  const signal = await waitForStopSignal(logger);
  logger.info({ signal }, 'stopping: draining buffers');
  const clean = await closeInOrder(logger, [...running.steps, ...cleanup.reverse()]);
  logger.info({ clean }, 'stopped');
  return clean ? 0 : 1;
}

/** Starts the component; `cleanup` collects what must be closed after it (also on a failed start). */
async function start(component: SplitComponent, settings: Settings, deps: { bus: Bus; registry: Registry; logger: Logger }, cleanup: [string, () => Promise<void>][]): Promise<Running> {
  const { bus, registry, logger } = deps;
  if (component === 'ingest') {
    // Ingest creates the topics when absent, so exports can be published before any consumer runs.
    await bus.ensureTopics(topicSpecs(settings));
    const ingest = buildIngest(settings, deps, settings.http_addr);
    await ingest.start();
    return { ready: { grpc: ingest.ports().grpc, http: ingest.ports().http }, steps: [['ingest', () => ingest.close()]] };
  }
  if (component === 'api') {
    const store = await openStore(settings, cleanup);
    const api = buildApi(settings, { bus, store, registry, logger, metricRegistries: [registry] });
    const recorder = buildRecorder(settings, { store, logger, registry, sources: new Map([['svc-api', registry]]) });
    await api.start();
    await recorder.start();
    return { ready: { api: api.port() }, steps: [['recorder', () => recorder.close()], ['api', () => api.close()]] };
  }
  const consumer = CONSUMERS[component];
  const setting = `${component}.metrics_addr`;
  // The metrics port first: a taken one stops the process before it connects to anything.
  const metrics = await startMetricsServer(setting, consumer.metricsAddr(settings), registry, logger);
  cleanup.push(['metrics', () => metrics.close()]);
  const store = await openStore(settings, cleanup);
  await bus.ensureTopics(topicSpecs(settings));
  const built = consumer.build(settings, { bus, store, registry, logger });
  await built.start();
  return { ready: { metrics: metrics.port() }, steps: [[component, () => built.close()]] };
}

async function openStore(settings: Settings, cleanup: [string, () => Promise<void>][]): Promise<Store> {
  const store = await createStore(settings);
  cleanup.push(['store', () => store.close()]);
  return store;
}
