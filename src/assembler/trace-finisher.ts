/**
 * A closed trace's way out: its buffered chunks decoded, the whole analysed against its endpoint's
 * baseline, and what the analysis produced queued for the store and the stories topic.
 */
import { performance } from 'node:perf_hooks';
import { analyzeTrace } from '../analysis/analyze.js';
import type { ThresholdSettings } from '../config/settings.js';
import { DropTally } from '../otlp/item-validity.js';
import type { RecordDecoder } from '../otlp/record-decoder.js';
import type { DropReason } from '../store/drop-reason.js';
import type { Logger } from '../util/log.js';
import { createLogOnce } from '../util/log-once.js';
import type { Baselines } from './baselines.js';
import type { AssemblerMetrics } from './metrics.js';
import type { AssemblerOutputs } from './outputs.js';
import { countDropped, readStorableRows, type TraceRows } from './record-rows.js';
import type { ClosedTrace } from './trace-buffer.js';

export interface TraceFinisherDeps {
  decoder: RecordDecoder;
  baselines: Baselines;
  outputs: AssemblerOutputs;
  thresholds: ThresholdSettings;
  /** assembler.max_buffer_bytes, named when the buffer closes traces early. */
  maxBufferBytes: number;
  metrics: AssemblerMetrics;
  logger: Logger;
  nowMs: () => number;
}

export class TraceFinisher {
  private readonly logOnce = createLogOnce();

  constructor(private readonly deps: TraceFinisherDeps) {}

  /** Analyses one closed trace and queues what it produced; a failing analysis skips the trace. */
  finish(closed: ClosedTrace): void {
    const { metrics, logger } = this.deps;
    metrics.tracesClosed.inc({ reason: closed.reason });
    if (closed.reason === 'buffer') {
      this.logOnce('buffer', () =>
        logger.warn(
          { maxBufferBytes: this.deps.maxBufferBytes },
          'open traces passed assembler.max_buffer_bytes: closing the oldest early, flagged truncated (counted in svc_assembler_traces_closed_total{reason="buffer"}; logged once)',
        ),
      );
    }
    const startedMs = performance.now();
    try {
      const { spans, logs } = this.rowsOf(closed);
      const analysis = analyzeTrace({
        spans,
        logs,
        truncated: closed.truncated,
        baseline: this.deps.baselines.lookup,
        thresholds: this.deps.thresholds,
      });
      metrics.analysisSeconds.observe((performance.now() - startedMs) / 1000);
      if (analysis === null) return;
      this.deps.outputs.add(analysis);
      if (analysis.story !== null) metrics.stories.inc({ kind: analysis.story.kind });
    } catch (error) {
      metrics.analysisFailures.inc();
      this.logOnce('analysis', () =>
        logger.error(
          { err: error, traceId: closed.traceId },
          'trace analysis failed; trace skipped (counted in svc_assembler_analysis_failures_total; logged once)',
        ),
      );
    }
  }

  /** The closed trace's rows: buffered ones plus its encoded chunks, decoded now, without items the writer will not store. */
  private rowsOf(closed: ClosedTrace): TraceRows {
    if (closed.chunks.length === 0) return { spans: closed.spans, logs: closed.logs };
    const nowNs = BigInt(this.deps.nowMs()) * 1_000_000n;
    const spans = [...closed.spans];
    const logs = [...closed.logs];
    const dropped = new DropTally<DropReason>();
    for (const chunk of closed.chunks) {
      // No bus place: the chunk's record was committed when it was buffered.
      const rows = readStorableRows(this.deps.decoder, chunk.signal, chunk.value, undefined, nowNs, dropped);
      for (const span of rows.spans) spans.push(span);
      for (const log of rows.logs) logs.push(log);
    }
    countDropped(this.deps.metrics, dropped);
    return { spans, logs };
  }
}
