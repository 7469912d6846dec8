import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

export function createWriterMetrics(registry: Registry) {
  const registers = [registry];
  return {
    rowsWritten: new Counter({ name: 'svc_writer_rows_written_total', help: 'Rows stored', labelNames: ['table'], registers }),
    dropped: new Counter({
      name: 'svc_writer_dropped_items_total',
      help: "Items not stored, by reason: too_old (timestamp 0 or older than 3 days), time_out_of_range (past 2262, beyond the store's Int64 nanoseconds), invalid_id (all-zero trace or span id), bad_record (undecodable record)",
      labelNames: ['reason'],
      registers,
    }),
    insertFailures: new Counter({ name: 'svc_writer_insert_failures_total', help: 'Failed batch inserts (retried)', registers }),
    bufferedRows: new Gauge({ name: 'svc_writer_buffered_rows', help: 'Rows waiting for the next batch insert', registers }),
    flushSeconds: new Histogram({
      name: 'svc_writer_flush_duration_seconds',
      help: 'Batch insert time',
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10],
      registers,
    }),
  };
}
