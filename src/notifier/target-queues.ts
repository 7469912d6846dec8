/** One delivery queue per configured target, recording each result before it is counted. */

import type { NotifierSettings } from '../config/settings.js';
import { deliveryKey } from '../store/deliveries.js';
import type { Logger } from '../util/log.js';
import type { Breaker } from './breaker.js';
import type { DeliveryMemory } from './delivery-memory.js';
import type { NotifierMetrics } from './metrics.js';
import type { RecordWriter } from './record-writer.js';
import { TargetQueue, type Sleep } from './target-queue.js';

export interface TargetQueuesDeps {
  breakers: ReadonlyMap<string, Breaker>;
  memory: DeliveryMemory;
  metrics: NotifierMetrics;
  writeRecords: RecordWriter;
  /** The version stamp of a record (strictly increasing). */
  stampMs: () => number;
  capacity: number;
  fetch: typeof fetch;
  nowMs: () => number;
  sleep: Sleep;
  closing: AbortSignal;
  logger: Logger;
}

export function createTargetQueues(config: NotifierSettings, deps: TargetQueuesDeps): Map<string, TargetQueue> {
  const { memory, metrics, writeRecords, stampMs } = deps;
  return new Map(
    config.targets.map((target) => {
      const queue: TargetQueue = new TargetQueue({
        target,
        publicUrl: config.public_url,
        maxAttempts: config.max_attempts,
        timeoutMs: config.timeout_secs * 1_000,
        capacity: deps.capacity,
        breaker: deps.breakers.get(target.name)!,
        fetch: deps.fetch,
        nowMs: deps.nowMs,
        sleep: deps.sleep,
        closing: deps.closing,
        logger: deps.logger,
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
}
