/**
 * The notifier: reads log alerts from the alerts topic and delivers each once per alert and
 * target to webhook and chat targets.
 *
 * Once-delivery across restarts: before an alert is handed to a target's queue, `pending` is
 * written to notifier_deliveries; the bus batch commits only after every alert of it has a
 * recorded result (`stale`, `failed` on a full queue) or a recorded `pending`. A start resumes
 * the pending deliveries (their alert read from log_alerts), and an alert read again from the
 * topic is skipped once delivered or failed. A stop lets attempts in flight finish and be
 * recorded, and leaves the queued alerts `pending`. The gap left (the contract tells receivers to
 * deduplicate on alert_id) is a kill, or a failed store write, between a 2xx and the write of
 * `delivered`.
 */

import { setTimeout as delay } from 'node:timers/promises';
import type { Registry } from 'prom-client';
import type { NotifierSettings } from '../config/settings.js';
import type { Bus, BusConsumer, BusRecord } from '../model/bus.js';
import type { Component } from '../model/component.js';
import type { Store } from '../model/store.js';
import { deliveryKey, readDeliveries, readPendingDeliveries, recordDeliveries } from '../store/deliveries.js';
import type { Logger } from '../util/log.js';
import { createLogOnce } from '../util/log-once.js';
import { createVersionClock } from '../util/version-clock.js';
import { alertFromStored } from './alert.js';
import { newestAlerts } from './alert-batch.js';
import { Breaker } from './breaker.js';
import { DeliveryMemory } from './delivery-memory.js';
import { createNotifierMetrics } from './metrics.js';
import { planSteps, type DeliveryStep, type PlanContext, type PlanInput } from './plan.js';
import { createRecordWriter } from './record-writer.js';
import type { Sleep } from './target-queue.js';
import { createTargetQueues } from './target-queues.js';

export const NOTIFIER_GROUP = 'svc-notifier';
/** Alerts waiting per target; a target that is down long enough to fill it loses the newest (recorded `failed`). */
export const QUEUE_CAPACITY = 1_000;
const MEMORY_ENTRIES = 50_000;

export interface NotifierDeps {
  bus: Bus;
  store: Store;
  registry: Registry;
  logger: Logger;
  nowMs?: () => number;
  fetch?: typeof fetch;
  /** Waits `ms`; resolves or rejects early when `signal` aborts. */
  sleep?: Sleep;
  /** Alerts waiting per target (default QUEUE_CAPACITY). */
  queueCapacity?: number;
}

const defaultSleep: Sleep = (ms, signal) => delay(ms, undefined, { signal });

/** Creates the notifier component (consumer group `svc-notifier`). */
export function createNotifier(settings: { notifier: NotifierSettings }, deps: NotifierDeps): Component {
  const config = settings.notifier;
  const logger = deps.logger.child({ component: 'notifier' });
  const nowMs = deps.nowMs ?? Date.now;
  const sleep = deps.sleep ?? defaultSleep;
  const queueCapacity = deps.queueCapacity ?? QUEUE_CAPACITY;
  const kinds = new Set<string>(config.kinds);
  const memory = new DeliveryMemory(MEMORY_ENTRIES);
  const closing = new AbortController();
  const breakers = new Map(config.targets.map((target) => [target.name, new Breaker(config.breaker_cooldown_secs * 1_000, nowMs)]));
  const metrics = createNotifierMetrics(deps.registry, () => [...breakers].map(([name, breaker]) => [name, breaker.isOpen()]));
  const logOnce = createLogOnce();
  /** Strictly increasing per process, so a later state of a pair always wins ReplacingMergeTree's version. */
  const stampMs = createVersionClock(nowMs);
  const writeRecords = createRecordWriter({ store: deps.store, sleep, metrics, logger });
  const queues = createTargetQueues(config, {
    breakers,
    memory,
    metrics,
    writeRecords,
    stampMs,
    capacity: queueCapacity,
    fetch: deps.fetch ?? globalThis.fetch,
    nowMs,
    sleep,
    closing: closing.signal,
    logger,
  });
  const planContext: PlanContext = {
    queueRoom: new Map([...queues].map(([name, queue]) => [name, (count: number) => queue.hasRoom(count)])),
    memory: (key) => memory.get(key),
    maxAttempts: config.max_attempts,
    isStale: (alert) => nowMs() - Number(alert.last_at_ns / 1_000_000n) > config.max_age_secs * 1_000,
    nowMs,
    stampMs,
  };
  let consumer: BusConsumer | undefined;
  let intake: Promise<void> = Promise.resolve();

  /** Applies steps whose records are written: memory, metrics, queues. */
  function apply(steps: DeliveryStep[]): void {
    for (const step of steps) {
      memory.set(step.key, step.state);
      if (step.record !== undefined && step.state !== 'queued') metrics.deliveries.inc({ result: step.state });
      if (step.dropped === true) {
        metrics.dropped.inc({ target: step.target });
        logOnce(`queue_full:${step.target}`, () =>
          logger.warn(
            { target: step.target, capacity: queueCapacity },
            'notifier queue full: newest alerts recorded failed without an attempt (counted in svc_notifier_dropped_total; logged once)',
          ),
        );
      }
      if (step.job !== undefined) queues.get(step.target)!.enqueue(step.job);
    }
  }

  /** Plans alerts, writes their records, then applies them; rejects (nothing applied) when the write fails. */
  async function planAndApply(inputs: PlanInput[]): Promise<void> {
    const steps = planSteps(inputs, planContext);
    await recordDeliveries(
      deps.store,
      steps.flatMap((step) => (step.record === undefined ? [] : [step.record])),
    );
    apply(steps);
  }

  function badRecord(record: BusRecord, reason: string): void {
    metrics.badRecords.inc();
    logOnce('bad_record', () =>
      logger.warn(
        { reason, topic: record.topic, partition: record.partition, offset: String(record.offset) },
        'skipping an alerts-topic record that is not a log alert (counted in svc_notifier_bad_records_total; logged once)',
      ),
    );
  }

  async function handleBatch(records: BusRecord[]): Promise<void> {
    if (queues.size === 0) return; // delivery disabled: commit and move on
    const alerts = newestAlerts(records, kinds, badRecord);
    if (alerts.size === 0) return;
    const stored = await readDeliveries(deps.store, [...alerts.keys()], nowMs());
    // A failed read or write rejects the batch, so the bus delivers it again; nothing was applied.
    const targets = [...queues.keys()];
    await planAndApply([...alerts.values()].map((alert) => [alert, targets, stored] as const));
  }

  /** Queues deliveries a previous run left pending. */
  async function resumePending(): Promise<void> {
    const pending = await readPendingDeliveries(deps.store, [...queues.keys()], config.kinds, nowMs(), queueCapacity);
    if (pending.length === 0) return;
    await planAndApply(
      pending.map(
        ({ target, attempts, alert }) =>
          [alertFromStored(alert), [target], new Map([[deliveryKey(alert.alert_id, target), { result: 'pending' as const, attempts }]])] as const,
      ),
    );
    logger.info({ deliveries: pending.length }, 'resuming deliveries left pending by the previous run');
  }

  return {
    async start() {
      if (queues.size === 0) {
        logger.info('notifier.targets is empty: alert delivery is disabled (alerts are read and committed)');
      } else {
        logger.info({ targets: config.targets.map((t) => `${t.name} (${t.kind})`), kinds: config.kinds }, 'notifier delivering');
        try {
          await resumePending();
        } catch (error) {
          // Not fatal: a pending delivery also resumes when its alert is read from the topic again.
          logger.error({ err: error }, 'could not read pending deliveries; they resume when their alert is read again');
        }
        for (const queue of queues.values()) queue.start();
      }
      consumer = deps.bus.consume({
        group: NOTIFIER_GROUP,
        topics: [config.alerts_topic],
        // Batches one at a time (and chained below), so one alert is never planned twice at once.
        handler: (records) => (intake = intake.catch(() => undefined).then(() => handleBatch(records))),
        maxInFlightBatches: 1,
        maxBatchRecords: 200,
      });
    },
    async close() {
      await consumer?.close();
      closing.abort();
      await Promise.all([...queues.values()].map((queue) => queue.close()));
    },
  };
}
