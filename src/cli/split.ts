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
import { probeListen } from './listen-probe.js';
import { startMetricsServer } from './metrics-server.js';
import { ensureTopicsAtStart } from './topics.js';

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

/** What a split component is started with; the CLI passes a Kafka bus and createStore. */
export interface SplitDeps {
  /** Closed with the component. */
  bus: Bus;
  /** The component's metrics; the process's default metrics are added to it. */
  registry: Registry;
  logger: Logger;
  /** Opens the component's store (closed with it); only ingest never calls it. */
  openStore: (settings: Settings) => Promise<Store>;
}

export interface StartedComponent {
  /** Fields of the ready log line (bound ports). */
  ready: Record<string, number>;
  /** Drains the component, then closes what it used; false when a step failed (logged). */
  close(): Promise<boolean>;
}

type Steps = [string, () => Promise<void>][];

/** `svc ingest|writer|assembler|logminer|notifier|api`: one component against Kafka (and a ClickHouse server). */
export async function runSplit(component: SplitComponent, env: NodeJS.ProcessEnv): Promise<number> {
  const settings = loadSettings(component, env);
  const logger = createLogger(settings.log_filter);
  const bus = await createBus(settings, logger, `svc-${component}`);
  const started = await startSplitComponent(component, settings, { bus, registry: new Registry(), logger, openStore: createStore });
  logger.info(started.ready, `svc ${component} ready`);
  const signal = await waitForStopSignal(logger);
  logger.info({ signal }, 'stopping: draining buffers');
  const clean = await started.close();
  logger.info({ clean }, 'stopped');
  return clean ? 0 : 1;
}

/** Starts one split component; on a failed start, closes what was opened and rethrows. */
export async function startSplitComponent(component: SplitComponent, settings: Settings, deps: SplitDeps): Promise<StartedComponent> {
  const used: Steps = [['bus', () => deps.bus.close()]];
  // The process's own metrics (memory, CPU, event loop) beside the component's.
  collectDefaultMetrics({ register: deps.registry });
  try {
    const { ready, steps } = await start(component, settings, deps, used);
    return { ready, close: () => closeInOrder(deps.logger, [...steps, ...used.reverse()]) };
  } catch (error) {
    await closeInOrder(deps.logger, used.reverse());
    throw error;
  }
}

/** Starts the component; `used` collects what must be closed after it (also on a failed start). */
async function start(component: SplitComponent, settings: Settings, deps: SplitDeps, used: Steps): Promise<{ ready: Record<string, number>; steps: Steps }> {
  const { bus, registry, logger } = deps;
  const openStore = async () => {
    const store = await deps.openStore(settings);
    used.push(['store', () => store.close()]);
    return store;
  };
  if (component === 'ingest') {
    await probeListen('grpc_addr', settings.grpc_addr);
    await probeListen('http_addr', settings.http_addr);
    // Ingest creates the topics when absent, so exports can be published before any consumer runs.
    await ensureTopicsAtStart(bus, settings);
    const ingest = buildIngest(settings, { bus, registry, logger }, 'http_addr');
    await ingest.start();
    return { ready: { grpc: ingest.ports().grpc, http: ingest.ports().http }, steps: [['ingest', () => ingest.close()]] };
  }
  if (component === 'api') {
    await probeListen('http_addr', settings.http_addr);
    const store = await openStore();
    const api = buildApi(settings, { bus, store, registry, logger, metricRegistries: [registry] });
    const recorder = buildRecorder(settings, { store, logger, registry, sources: new Map([['svc-api', registry]]) });
    await api.start();
    await recorder.start();
    return {
      ready: { api: api.port() },
      steps: [
        ['recorder', () => recorder.close()],
        ['api', () => api.close()],
      ],
    };
  }
  const consumer = CONSUMERS[component];
  const setting = `${component}.metrics_addr`;
  // The metrics port first: a taken one stops the process before it connects to anything.
  const metrics = await startMetricsServer(setting, consumer.metricsAddr(settings), registry, logger);
  used.push(['metrics', () => metrics.close()]);
  const store = await openStore();
  await ensureTopicsAtStart(bus, settings);
  const built = consumer.build(settings, { bus, store, registry, logger });
  await built.start();
  return { ready: { metrics: metrics.port() }, steps: [[component, () => built.close()]] };
}
