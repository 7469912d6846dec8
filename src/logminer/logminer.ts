/**
 * The logminer: mines the logs topic into templates per service, stores templates and hits,
 * and every `detect_secs` raises new / spike / silence alerts for the services it owns, stores
 * them and publishes them to the alerts topic.
 *
 * Commit timing: a bus batch resolves (and is committed) only once the hits and templates of its
 * logs are stored, so a crash re-mines what was not stored rather than losing it.
 */
import type { Registry } from 'prom-client';
import type { LogminerSettings } from '../config/settings.js';
import { MASKING_VERSION } from '../mining/masking.js';
import type { Bus, BusConsumer, BusRecord } from '../model/bus.js';
import type { Component } from '../model/component.js';
import type { LogRow } from '../model/signals.js';
import type { Store } from '../model/store.js';
import type { Logger } from '../util/log.js';
import { createLogOnce } from '../util/log-once.js';
import { createVersionClock } from '../util/version-clock.js';
import { AlertOutput } from './alert-output.js';
import { createDetector } from './detector.js';
import { Flusher } from './flusher.js';
import { LiveState } from './live-state.js';
import { createLogIntake } from './log-intake.js';
import { createLogminerMetrics } from './metrics.js';
import { createMiningEngine } from './mining-engine.js';
import { restoreLogminer } from './restore.js';
import { createTemplateMiner, templateRows } from './template-miner.js';

export const LOGMINER_GROUP = 'svc-logminer';
/** Minute slack kept in memory beyond the spike window and its baseline. */
const SLACK_MINUTES = 2;

export interface LogminerDeps {
  bus: Bus;
  store: Store;
  registry: Registry;
  logger: Logger;
  nowMs?: () => number;
}

export interface Logminer extends Component {
  /** Runs a detection pass now (after storing what is mined), instead of waiting for the timer (tests). */
  detectNow(): Promise<void>;
}

export function createLogminer(settings: { logminer: LogminerSettings; logsTopic: string }, deps: LogminerDeps): Logminer {
  const s = settings.logminer;
  const logger = deps.logger.child({ component: 'logminer' });
  const nowMs = deps.nowMs ?? Date.now;
  const keepMinutes = s.spike_window_min + s.baseline_window_min + SLACK_MINUTES;
  const state = new LiveState(keepMinutes, s.ownership_window_min * 60_000);
  const metrics = createLogminerMetrics(deps.registry, {
    // Read at scrape time, so the lag keeps growing while no logs arrive.
    dataLagSecs: () => (state.newestLogNs === null ? 0 : Math.max(0, (nowMs() - Number(state.newestLogNs / 1_000_000n)) / 1000)),
  });
  const logOnce = createLogOnce();
  const engine = createMiningEngine(s);
  const output = new AlertOutput({
    store: deps.store,
    bus: deps.bus,
    alertsTopic: s.alerts_topic,
    activeWindowMs: s.alert_active_min * 60_000,
    nowMs,
    onPublished: (n) => metrics.published.inc(n),
    onPublishFailure: (error) => {
      metrics.publishFailures.inc();
      logOnce('publish', () => logger.warn({ err: error }, 'alert publish failed; stored alerts are republished after a later pass (logged once)'));
    },
  });
  /** Template versions strictly increase: two flushes in one millisecond must not tie. */
  const templateVersionMs = createVersionClock(nowMs);
  const flusher = new Flusher({
    store: deps.store,
    maxBatch: s.max_batch,
    flushMs: s.flush_ms,
    templateRows: (ids) => templateRows(state, ids, templateVersionMs()),
    onFailure: (error, attempt) => {
      metrics.flushFailures.inc();
      if (attempt === 1) logger.error({ err: error }, 'storing templates and hits failed; retrying with backoff');
    },
  });
  const intake = createLogIntake({ logger, metrics });
  const mineLogs = createTemplateMiner({ engine, state, flusher, metrics, nowMs });
  const detector = createDetector(s, { store: deps.store, state, flusher, output, metrics, logger, nowMs, keepMinutes });
  let consumer: BusConsumer | undefined;
  let mining: Promise<unknown> = Promise.resolve();

  // Not an async function: one would keep `logs` (whole decoded rows) while the batch waits for its
  // hits to be stored, long enough to carry them into the old generation; chained like this they
  // are garbage once mined (the hits the flusher queued are what the wait needs).
  function handle(records: BusRecord[]): Promise<void> {
    let logs: LogRow[];
    try {
      logs = intake(records, nowMs());
    } catch (error) {
      return Promise.reject(error as Error); // as an async function would: consumers expect a promise
    }
    // Mining is serialized: per-service order decides templates and ids.
    const mined = mining.then(() => mineLogs(logs));
    mining = mined.catch(() => undefined);
    return mined.then(() => flusher.commitPoint());
  }

  return {
    async start() {
      const restored = await restoreLogminer({ store: deps.store, engine, state, nowMs: nowMs(), keepHttpStatus: s.keep_http_status, keepMinutes });
      detector.resume(restored);
      metrics.templates.set(state.templates.size);
      consumer = deps.bus.consume({ group: LOGMINER_GROUP, topics: [settings.logsTopic], handler: handle, maxInFlightBatches: 16, maxBatchRecords: 200 });
      detector.start();
      logger.info(
        {
          maskingVersion: MASKING_VERSION,
          newEpoch: restored.newEpoch,
          epochStartMs: restored.epochStartMs,
          restoredTemplates: restored.restoredTemplates,
          fingerprinter: s.fingerprinter,
          detectSecs: s.detect_secs,
        },
        restored.newEpoch ? 'logminer consuming; masking changed: new masking epoch, no new-template alerts for 15 minutes' : 'logminer consuming',
      );
    },
    detectNow: () => detector.tick(),
    async close() {
      const detected = detector.stop();
      await consumer?.close();
      await mining;
      await detected;
      await flusher.close();
      await engine.close();
    },
  };
}
