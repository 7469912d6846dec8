import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export interface IngestMetrics {
  published: Counter<'topic'>;
  publishFailures: Counter<string>;
  rejected: Counter<'transport' | 'reason'>;
  droppedItems: Counter<'reason'>;
  acceptedItems: Counter<'signal'>;
  /** Exports answered "retry later" for back-pressure; `reason` is a Refusal (memory among them) or `bus_full`. */
  busy: Counter<'transport' | 'reason'>;
  exportSeconds: Histogram<'signal'>;
}

export function createIngestMetrics(registry: Registry): IngestMetrics {
  const registers = [registry];
  return {
    published: new Counter({ name: 'svc_ingest_records_published_total', help: 'Records published to the bus', labelNames: ['topic'], registers }),
    publishFailures: new Counter({ name: 'svc_ingest_publish_failures_total', help: 'Publish failures (broker down)', registers }),
    rejected: new Counter({
      name: 'svc_ingest_rejected_requests_total',
      help: 'Undecodable or unacceptable export requests',
      labelNames: ['transport', 'reason'],
      registers,
    }),
    droppedItems: new Counter({
      name: 'svc_ingest_dropped_items_total',
      help: 'Spans and logs dropped and reported to the client as rejected (OTLP partial success), by reason: oversize (alone above kafka.max_record_bytes), invalid_id (all-zero trace or span id), time_out_of_range (past 2262, beyond the store)',
      labelNames: ['reason'],
      registers,
    }),
    acceptedItems: new Counter({ name: 'svc_ingest_accepted_items_total', help: 'Spans and logs accepted', labelNames: ['signal'], registers }),
    busy: new Counter({
      name: 'svc_ingest_backpressure_total',
      help: 'Exports answered retry-later (HTTP 503 + Retry-After, gRPC UNAVAILABLE + RetryInfo): in-flight bounds reached, memory above its bound, bus full, or stopping',
      labelNames: ['transport', 'reason'],
      registers,
    }),
    exportSeconds: new Histogram({
      name: 'svc_ingest_export_duration_seconds',
      help: 'Time from request to acknowledgement',
      labelNames: ['signal'],
      buckets: [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10],
      registers,
    }),
  };
}

/** Gauges of the in-flight budget, read at scrape time. */
export function registerInFlightGauges(registry: Registry, read: () => { requests: number; bytes: number }): void {
  new Gauge({
    name: 'svc_ingest_in_flight_requests',
    help: 'Exports being read, decoded or published',
    registers: [registry],
    collect() {
      this.set(read().requests);
    },
  });
  new Gauge({
    name: 'svc_ingest_in_flight_bytes',
    help: 'Bytes reserved by exports in flight (request bytes plus estimated decoded rows)',
    registers: [registry],
    collect() {
      this.set(read().bytes);
    },
  });
}
