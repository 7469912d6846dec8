/**
 * A consumed batch into the trace buffer: records from our ingest stay encoded, others are decoded
 * and grouped by trace. Traces a limit closes on the way are finished at once.
 */
import type { BusRecord } from '../model/bus.js';
import { DropTally } from '../otlp/item-validity.js';
import type { RecordDecoder } from '../otlp/record-decoder.js';
import type { DropReason } from '../store/drop-reason.js';
import type { AssemblerMetrics } from './metrics.js';
import { countDropped, encodedChunkOf, groupByTrace, readStorableRows, signalOf } from './record-rows.js';
import type { AddResult, TraceBuffer } from './trace-buffer.js';
import type { TraceFinisher } from './trace-finisher.js';

export interface IntakeDeps {
  buffer: TraceBuffer;
  decoder: RecordDecoder;
  finisher: TraceFinisher;
  metrics: AssemblerMetrics;
}

export class Intake {
  constructor(private readonly deps: IntakeDeps) {}

  /** Buffers `records` at `nowMs`, in order, so the batches of a partition are buffered in delivery order. */
  add(records: readonly BusRecord[], nowMs: number): void {
    const { buffer, decoder } = this.deps;
    const nowNs = BigInt(nowMs) * 1_000_000n;
    const dropped = new DropTally<DropReason>();
    for (const record of records) {
      const chunk = encodedChunkOf(record);
      if (chunk === 'skip') continue;
      if (chunk !== null) {
        const result = buffer.addEncoded(record.partition, record.key, chunk, nowMs);
        if (result !== null) {
          this.count(result);
          continue;
        }
        // Past max_spans: decode so that add() cuts at the exact span.
      }
      const rows = readStorableRows(decoder, signalOf(record), record.value, record, nowNs, dropped);
      for (const [traceId, items] of groupByTrace(rows)) this.count(buffer.add(record.partition, traceId, items.spans, items.logs, nowMs));
    }
    countDropped(this.deps.metrics, dropped);
  }

  private count(result: AddResult): void {
    const { metrics, finisher } = this.deps;
    if (result.late > 0) metrics.lateItems.inc(result.late);
    if (result.newPieces > 0) metrics.tracePieces.inc(result.newPieces);
    for (const closed of result.closed) finisher.finish(closed);
  }
}
