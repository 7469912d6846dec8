import { Counter, Gauge, type Registry } from 'prom-client';

/** The logminer's metrics; the first four names are the contract's. */
export function createLogminerMetrics(registry: Registry, sources: { dataLagSecs(): number }) {
  const registers = [registry];
  const metrics = {
    logsMined: new Counter({ name: 'svc_logminer_logs_mined_total', help: 'Log lines mined into templates', registers }),
    dataLag: new Gauge({
      name: 'svc_logminer_data_lag_seconds',
      help: 'Wall clock minus the newest mined log time',
      registers,
      collect() {
        this.set(sources.dataLagSecs());
      },
    }),
    spikeSkipped: new Counter({
      name: 'svc_logminer_spike_skipped_total',
      help: 'Spike windows skipped, by reason (coverage: under half of the minutes covered)',
      labelNames: ['reason'],
      registers,
    }),
    templates: new Gauge({ name: 'svc_logminer_templates', help: 'Templates held by this replica', registers }),
    alerts: new Counter({ name: 'svc_logminer_alerts_total', help: 'Alerts raised or refreshed by detection, by kind', labelNames: ['kind'], registers }),
    published: new Counter({ name: 'svc_logminer_alerts_published_total', help: 'Alert records published to the alerts topic', registers }),
    publishFailures: new Counter({ name: 'svc_logminer_publish_failures_total', help: 'Failed alert publishes (republished by a later pass)', registers }),
    flushFailures: new Counter({ name: 'svc_logminer_flush_failures_total', help: 'Failed template and hit writes (retried)', registers }),
    detectFailures: new Counter({ name: 'svc_logminer_detect_failures_total', help: 'Detection passes that failed (the next pass tries again)', registers }),
    detectPasses: new Counter({ name: 'svc_logminer_detect_passes_total', help: 'Detection passes completed (their alerts stored and published)', registers }),
    dropped: new Counter({
      name: 'svc_logminer_dropped_items_total',
      help: 'Logs not mined, by reason (as svc_writer_dropped_items_total): bad_record, too_old, time_out_of_range',
      labelNames: ['reason'],
      registers,
    }),
  };
  // Shown at 0 from the start, so a dashboard sees the series before the first skip.
  metrics.spikeSkipped.inc({ reason: 'coverage' }, 0);
  return metrics;
}

export type LogminerMetrics = ReturnType<typeof createLogminerMetrics>;
