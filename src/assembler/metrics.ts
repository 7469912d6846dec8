import { Counter, Gauge, Histogram, type Registry } from 'prom-client';

/** The assembler's metrics; `svc_assembler_late_items_total` is named by the contract. */
export function createAssemblerMetrics(registry: Registry) {
  const registers = [registry];
  return {
    lateItems: new Counter({
      name: 'svc_assembler_late_items_total',
      help: 'Spans and logs arriving after their trace closed (stored raw by the writer, story not recomputed)',
      registers,
    }),
    openTraces: new Gauge({ name: 'svc_assembler_open_traces', help: 'Traces buffered and not closed yet', registers }),
    bufferedBytes: new Gauge({
      name: 'svc_assembler_buffered_bytes',
      help: 'Estimated bytes of the open traces (bounded by assembler.max_buffer_bytes)',
      registers,
    }),
    tracesClosed: new Counter({
      name: 'svc_assembler_traces_closed_total',
      help: 'Traces closed, by reason (gap, max_age, max_spans, buffer, shutdown)',
      labelNames: ['reason'],
      registers,
    }),
    tracePieces: new Counter({
      name: 'svc_assembler_trace_pieces_total',
      help: 'Traces reopened as a new piece (items more than max_age_ms after the closed piece opened)',
      registers,
    }),
    stories: new Counter({ name: 'svc_assembler_stories_total', help: 'Stories produced, by kind', labelNames: ['kind'], registers }),
    analysisSeconds: new Histogram({
      name: 'svc_assembler_analysis_duration_seconds',
      help: 'Time to analyse one closed trace',
      buckets: [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1],
      registers,
    }),
    analysisFailures: new Counter({ name: 'svc_assembler_analysis_failures_total', help: 'Closed traces whose analysis threw (skipped)', registers }),
    droppedItems: new Counter({
      name: 'svc_assembler_dropped_items_total',
      help: 'Items not assembled, by reason (as svc_writer_dropped_items_total): bad_record, too_old, time_out_of_range, invalid_id',
      labelNames: ['reason'],
      registers,
    }),
    rowsWritten: new Counter({
      name: 'svc_assembler_rows_written_total',
      help: 'Rows stored or records published, by table (stories_topic: records published)',
      labelNames: ['table'],
      registers,
    }),
    writeFailures: new Counter({ name: 'svc_assembler_write_failures_total', help: 'Failed inserts or publishes (retried)', labelNames: ['table'], registers }),
    droppedRows: new Counter({
      name: 'svc_assembler_dropped_rows_total',
      help: 'Rows dropped because a bounded write queue was full (the store or broker was down too long)',
      labelNames: ['table'],
      registers,
    }),
    trustedBaselines: new Gauge({ name: 'svc_assembler_trusted_baselines', help: 'Endpoints with a trusted baseline in use', registers }),
    baselineRefreshFailures: new Counter({
      name: 'svc_assembler_baseline_refresh_failures_total',
      help: 'Baseline reloads that failed (the previous baselines stay in use)',
      registers,
    }),
  };
}

export type AssemblerMetrics = ReturnType<typeof createAssemblerMetrics>;
