import { Counter, Gauge, type Registry } from 'prom-client';

/**
 * The notifier's metrics; the first two are named by the contract. Target labels are target
 * NAMES: URLs are never labelled.
 */
export function createNotifierMetrics(registry: Registry, breakerOpen: () => Iterable<[string, boolean]>) {
  const registers = [registry];
  const deliveries = new Counter({
    name: 'svc_notifier_deliveries_total',
    help: 'Final delivery results per alert and target (delivered, failed, stale)',
    labelNames: ['result'],
    registers,
  });
  for (const result of ['delivered', 'failed', 'stale']) deliveries.inc({ result }, 0);
  return {
    deliveries,
    breakerOpen: new Gauge({
      name: 'svc_notifier_breaker_open',
      help: "1 while a target's breaker is open",
      labelNames: ['target'],
      registers,
      // Judged at scrape time, so the gauge drops to 0 the moment the cooldown ends.
      collect() {
        for (const [target, open] of breakerOpen()) this.set({ target }, open ? 1 : 0);
      },
    }),
    attempts: new Counter({
      name: 'svc_notifier_attempts_total',
      help: 'HTTP attempts per target and outcome (ok, retryable, failed)',
      labelNames: ['target', 'outcome'],
      registers,
    }),
    queued: new Gauge({
      name: 'svc_notifier_queued_alerts',
      help: 'Alerts waiting for delivery per target (bounded queue)',
      labelNames: ['target'],
      registers,
    }),
    dropped: new Counter({
      name: 'svc_notifier_dropped_total',
      help: "Alerts not attempted because the target's queue was full (recorded as failed)",
      labelNames: ['target'],
      registers,
    }),
    badRecords: new Counter({ name: 'svc_notifier_bad_records_total', help: 'Alerts-topic records that are not a log alert (skipped)', registers }),
    recordFailures: new Counter({ name: 'svc_notifier_record_failures_total', help: 'Failed writes of a delivery record', registers }),
  };
}

export type NotifierMetrics = ReturnType<typeof createNotifierMetrics>;
