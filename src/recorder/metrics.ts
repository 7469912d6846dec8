import { Counter, type Registry } from 'prom-client';

/** The recorder's own figures, in the API's registry (the recorder runs in the API process). */
export function createRecorderMetrics(registry: Registry) {
  const registers = [registry];
  return {
    samples: new Counter({ name: 'svc_api_recorder_samples_total', help: 'Metric samples written by the recorder', registers }),
    droppedSamples: new Counter({
      name: 'svc_api_recorder_dropped_samples_total',
      help: 'Metric samples not written: over the per-tick bound, or in a batch the store refused',
      registers,
    }),
    writeFailures: new Counter({ name: 'svc_api_recorder_write_failures_total', help: 'Recorder batches the store refused', registers }),
    scrapeFailures: new Counter({
      name: 'svc_api_recorder_scrape_failures_total',
      help: 'Metric targets that could not be scraped',
      labelNames: ['job'],
      registers,
    }),
  };
}
