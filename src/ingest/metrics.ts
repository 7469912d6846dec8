import { Counter, Histogram, type Registry } from 'prom-client';

export interface IngestMetrics {
  published: Counter<'topic'>;
  publishFailures: Counter<string>;
  rejected: Counter<'transport' | 'reason'>;
  droppedItems: Counter<'reason'>;
  acceptedItems: Counter<'signal'>;
  busy: Counter<'transport'>;
  exportSeconds: Histogram<'signal'>;
}

export function createIngestMetrics(registry: Registry): IngestMetrics {
  const registers = [registry];
  return {
    published: new Counter({ name: 'svc_ingest_records_published_total', help: 'Records published to the bus', labelNames: ['topic'], registers }),
    publishFailures: new Counter({ name: 'svc_ingest_publish_failures_total', help: 'Publish failures (broker down)', registers }),
    rejected: new Counter({ name: 'svc_ingest_rejected_requests_total', help: 'Undecodable or unacceptable export requests', labelNames: ['transport', 'reason'], registers }),
    droppedItems: new Counter({ name: 'svc_ingest_dropped_items_total', help: 'Spans and logs dropped because one alone exceeds the record byte budget', labelNames: ['reason'], registers }),
    acceptedItems: new Counter({ name: 'svc_ingest_accepted_items_total', help: 'Spans and logs accepted', labelNames: ['signal'], registers }),
    busy: new Counter({ name: 'svc_ingest_backpressure_total', help: 'Exports answered with retry-later because the bus is full', labelNames: ['transport'], registers }),
    exportSeconds: new Histogram({
      name: 'svc_ingest_export_duration_seconds',
      help: 'Time from request to acknowledgement',
      labelNames: ['signal'],
      buckets: [0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10],
      registers,
    }),
  };
}
