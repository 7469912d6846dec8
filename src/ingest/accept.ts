import { BusFullError, type Bus, type SignalKind } from '../model/bus.js';
import type { LogRow, SpanRow } from '../model/signals.js';
import type { Logger } from '../util/log.js';
import type { DecodedExport, SignalCodec } from './codec.js';
import type { IngestMetrics } from './metrics.js';
import { buildLogRecords, buildSpanRecords, type ItemEncoder } from './records.js';

export type AcceptResult = { kind: 'ok' } | { kind: 'busy' } | { kind: 'unavailable' };

export interface AcceptDeps {
  bus: Bus;
  codec: SignalCodec;
  metrics: IngestMetrics;
  logger: Logger;
  topics: { signals: string; logs: string };
  maxRecordBytes: number;
}

/**
 * Publishes decoded items and resolves once they are safe, so that the transport answers success
 * only then. Shared by gRPC and HTTP.
 */
export function createAcceptor(deps: AcceptDeps) {
  let loggedOversize = false;
  let loggedFailure = false;

  async function publishAll(signal: SignalKind, built: ReturnType<typeof buildSpanRecords>): Promise<AcceptResult> {
    if (built.droppedItems > 0) {
      deps.metrics.droppedItems.inc({ reason: 'oversize' }, built.droppedItems);
      if (!loggedOversize) {
        loggedOversize = true;
        deps.logger.warn({ signal, maxRecordBytes: deps.maxRecordBytes }, 'dropped items that alone exceed kafka.max_record_bytes (counted in svc_ingest_dropped_items_total; logged once)');
      }
    }
    try {
      const sends: Promise<void>[] = [];
      if (built.signals.length > 0) sends.push(deps.bus.publish(deps.topics.signals, built.signals));
      if (built.logs.length > 0) sends.push(deps.bus.publish(deps.topics.logs, built.logs));
      await Promise.all(sends);
    } catch (error) {
      if (error instanceof BusFullError) return { kind: 'busy' };
      deps.metrics.publishFailures.inc();
      if (!loggedFailure) {
        loggedFailure = true;
        deps.logger.error({ err: error }, 'publishing to the bus failed; clients are told to retry (further failures are counted in svc_ingest_publish_failures_total)');
      }
      return { kind: 'unavailable' };
    }
    deps.metrics.published.inc({ topic: deps.topics.signals }, built.signals.length);
    if (built.logs.length > 0) deps.metrics.published.inc({ topic: deps.topics.logs }, built.logs.length);
    loggedFailure = false;
    return { kind: 'ok' };
  }

  return {
    async acceptSpans(decoded: DecodedExport<SpanRow>): Promise<AcceptResult> {
      const stop = deps.metrics.exportSeconds.startTimer({ signal: 'traces' });
      const result = await publishAll('traces', buildSpanRecords(decoded.rows, deps.maxRecordBytes, itemEncoder(decoded, deps.codec.encodeSpans)));
      stop();
      if (result.kind === 'ok') deps.metrics.acceptedItems.inc({ signal: 'traces' }, decoded.rows.length);
      return result;
    },
    async acceptLogs(decoded: DecodedExport<LogRow>): Promise<AcceptResult> {
      const stop = deps.metrics.exportSeconds.startTimer({ signal: 'logs' });
      const result = await publishAll('logs', buildLogRecords(decoded.rows, deps.maxRecordBytes, itemEncoder(decoded, deps.codec.encodeLogs)));
      stop();
      if (result.kind === 'ok') deps.metrics.acceptedItems.inc({ signal: 'logs' }, decoded.rows.length);
      return result;
    },
  };
}

export type Acceptor = ReturnType<typeof createAcceptor>;

/** Frames records from the request's own bytes when it was protobuf; encodes the rows otherwise (JSON). */
function itemEncoder<Row>(decoded: DecodedExport<Row>, encodeRows: (rows: Row[]) => Buffer): ItemEncoder {
  const { rows, slices } = decoded;
  if (slices !== undefined && slices.usable && slices.items === rows.length) return (indices) => slices.frame(indices);
  return (indices) => encodeRows(indices.map((index) => rows[index]));
}
