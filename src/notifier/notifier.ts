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
import { deliveryKey, readDeliveries, readPendingDeliveries, recordDeliveries, type DeliveryRecord, type DeliveryState } from '../store/deliveries.js';
import type { Logger } from '../util/log.js';
import { createLogOnce } from '../util/log-once.js';
import { createVersionClock } from '../util/version-clock.js';
import { alertFromStored, parseAlertRecord, type NotifierAlert } from './alert.js';
import { Breaker } from './breaker.js';
import { DeliveryMemory, type MemoryState } from './delivery-memory.js';
import { createNotifierMetrics } from './metrics.js';
import { planDelivery } from './plan.js';
import { TargetQueue, type Job, type Sleep } from './target-queue.js';

export const NOTIFIER_GROUP = 'svc-notifier';
/** Alerts waiting per target; a target that is down long enough to fill it loses the newest (recorded `failed`). */
export const QUEUE_CAPACITY = 1_000;
const MEMORY_ENTRIES = 50_000;
const RECORD_WRITE_TRIES = 3;
const RECORD_RETRY_MS = 500;

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
/** A record write's retry wait is not cut short by a stop: a stop still records the results of attempts in flight. */
const NEVER_ABORTED = new AbortController().signal;

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
  let consumer: BusConsumer | undefined;
  let intake: Promise<void> = Promise.resolve();

  /** Strictly increasing per process, so a later state of a pair always wins ReplacingMergeTree's version. */
  const stampMs = createVersionClock(nowMs);

  function isStale(alert: NotifierAlert): boolean {
    return nowMs() - Number(alert.last_at_ns / 1_000_000n) > config.max_age_secs * 1_000;
  }

  /** Writes final or progress records, retrying briefly; a lost write is counted and logged, never thrown. */
  async function writeRecords(records: DeliveryRecord[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await recordDeliveries(deps.store, records);
        return;
      } catch (error) {
        if (attempt >= RECORD_WRITE_TRIES) {
          metrics.recordFailures.inc();
          logger.error({ err: error, alerts: records.map((r) => r.alertId) }, 'could not record delivery results (this process still will not resend them)');
          return;
        }
        await sleep(RECORD_RETRY_MS, NEVER_ABORTED);
      }
    }
  }

  const queues = new Map(
    config.targets.map((target) => {
      const queue: TargetQueue = new TargetQueue({
        target,
        publicUrl: config.public_url,
        maxAttempts: config.max_attempts,
        timeoutMs: config.timeout_secs * 1_000,
        capacity: queueCapacity,
        breaker: breakers.get(target.name)!,
        fetch: deps.fetch ?? globalThis.fetch,
        nowMs,
        sleep,
        closing: closing.signal,
        logger,
        onAttempt: (outcome) => metrics.attempts.inc({ target: target.name, outcome }),
        async onFinal(job, result) {
          memory.set(deliveryKey(job.alert.alert_id, target.name), result);
          await writeRecords([{ alertId: job.alert.alert_id, target: target.name, result, attempts: job.attempts, updatedAtMs: stampMs() }]);
          // Counted once recorded, so a scrape never shows a result the store does not have yet.
          metrics.deliveries.inc({ result });
        },
        async onRetry(job) {
          await writeRecords([{ alertId: job.alert.alert_id, target: target.name, result: 'pending', attempts: job.attempts, updatedAtMs: stampMs() }]);
        },
        onSizeChange: (size) => metrics.queued.set({ target: target.name }, size),
      });
      return [target.name, queue] as const;
    }),
  );

  /** One decided step; its memory, metric and queue effects apply only after its record is written. */
  interface Step {
    key: string;
    name: string;
    state: MemoryState;
    record?: DeliveryRecord;
    job?: Job;
    dropped?: boolean;
  }

  /** Decides for each of `targets` what to do with `alert`, given stored states keyed by deliveryKey. */
  function plan(alert: NotifierAlert, targets: readonly string[], stored: ReadonlyMap<string, DeliveryState>, steps: Step[], plannedJobs: Map<string, number>): void {
    const stale = isStale(alert);
    for (const name of targets) {
      const queue = queues.get(name);
      if (queue === undefined) continue;
      const key = deliveryKey(alert.alert_id, name);
      const known = stored.get(key);
      const action = planDelivery(memory.get(key), known, stale, config.max_attempts);
      const record = (result: DeliveryRecord['result'], attempts: number): DeliveryRecord => ({ alertId: alert.alert_id, target: name, result, attempts, updatedAtMs: stampMs() });
      if (action.kind === 'skip') {
        if (known?.result === 'delivered' || known?.result === 'failed') memory.set(key, known.result);
      } else if (action.kind === 'stale') {
        steps.push({ key, name, state: 'stale', record: record('stale', 0) });
      } else if (action.kind === 'fail') {
        steps.push({ key, name, state: 'failed', record: record('failed', action.attempts) });
      } else if (!queue.hasRoom((plannedJobs.get(name) ?? 0) + 1)) {
        steps.push({ key, name, state: 'failed', record: record('failed', action.attempts), dropped: true });
      } else {
        plannedJobs.set(name, (plannedJobs.get(name) ?? 0) + 1);
        steps.push({ key, name, state: 'queued', record: action.record ? record('pending', 0) : undefined, job: { alert, attempts: action.attempts, dueMs: nowMs() } });
      }
    }
  }

  /** Applies steps whose records are written: memory, metrics, queues. */
  function apply(steps: Step[]): void {
    for (const step of steps) {
      memory.set(step.key, step.state);
      if (step.state !== 'queued') metrics.deliveries.inc({ result: step.state });
      if (step.dropped) {
        metrics.dropped.inc({ target: step.name });
        logOnce(`queue_full:${step.name}`, () => logger.warn({ target: step.name, capacity: queueCapacity }, 'notifier queue full: newest alerts recorded failed without an attempt (counted in svc_notifier_dropped_total; logged once)'));
      }
      if (step.job !== undefined) queues.get(step.name)!.enqueue(step.job);
    }
  }

  /** Plans alerts, writes their records, then applies them; rejects (nothing applied) when the write fails. */
  async function planAndApply(alerts: Iterable<[NotifierAlert, readonly string[], ReadonlyMap<string, DeliveryState>]>): Promise<void> {
    const steps: Step[] = [];
    const plannedJobs = new Map<string, number>();
    for (const [alert, targets, stored] of alerts) plan(alert, targets, stored, steps, plannedJobs);
    await recordDeliveries(deps.store, steps.flatMap((step) => (step.record === undefined ? [] : [step.record])));
    apply(steps);
  }

  /** Newest copy (greatest last_at) of each alert in the batch, of a delivered kind. */
  function readBatch(records: BusRecord[]): Map<string, NotifierAlert> {
    const alerts = new Map<string, NotifierAlert>();
    for (const record of records) {
      const parsed = parseAlertRecord(record.value);
      if (!parsed.ok) {
        metrics.badRecords.inc();
        logOnce('bad_record', () => logger.warn({ reason: parsed.reason, topic: record.topic, partition: record.partition, offset: String(record.offset) }, 'skipping an alerts-topic record that is not a log alert (counted in svc_notifier_bad_records_total; logged once)'));
        continue;
      }
      if (!kinds.has(parsed.alert.kind)) continue;
      const seen = alerts.get(parsed.alert.alert_id);
      if (seen === undefined || parsed.alert.last_at_ns >= seen.last_at_ns) alerts.set(parsed.alert.alert_id, parsed.alert);
    }
    return alerts;
  }

  async function handleBatch(records: BusRecord[]): Promise<void> {
    if (queues.size === 0) return; // delivery disabled: commit and move on
    const alerts = readBatch(records);
    if (alerts.size === 0) return;
    const stored = await readDeliveries(deps.store, [...alerts.keys()], nowMs());
    // A failed read or write rejects the batch, so the bus delivers it again; nothing was applied.
    const targets = [...queues.keys()];
    await planAndApply([...alerts.values()].map((alert) => [alert, targets, stored]));
  }

  /** Queues deliveries a previous run left pending. */
  async function resumePending(): Promise<void> {
    const pending = await readPendingDeliveries(deps.store, [...queues.keys()], config.kinds, nowMs(), queueCapacity);
    if (pending.length === 0) return;
    await planAndApply(
      pending.map(({ target, attempts, alert }) => [alertFromStored(alert), [target], new Map([[deliveryKey(alert.alert_id, target), { result: 'pending' as const, attempts }]])]),
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
