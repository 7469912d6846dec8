import { BusFullError, type Bus, type SignalKind } from '../model/bus.js';
import type { LogRow, SpanRow } from '../model/signals.js';
import type { Logger } from '../util/log.js';
import type { DecodedExport, SignalCodec } from './codec.js';
import type { WireSlices } from '../otlp/wire-slices.js';
import type { IngestMetrics } from './metrics.js';
import { keepValid, logInvalidReason, spanInvalidReason, type InvalidReason } from '../otlp/item-validity.js';
import { buildLogRecords, buildSpanRecords, type ItemEncoder } from './records.js';

/**
 * `ok` may still have dropped some items (invalid, or alone above the record budget): OTLP's
 * partial success, told to the client as `rejected` items with a message.
 */
export type AcceptResult = { kind: 'ok'; rejected: number; message: string } | { kind: 'busy' } | { kind: 'unavailable' };

const INVALID_WORDS: Record<InvalidReason, string> = {
  invalid_id: 'an all-zero trace or span id',
  time_out_of_range: 'a time past 2262-04-11 (beyond the store)',
};

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
  const loggedInvalid = new Set<InvalidReason>();

  /**
   * Drops invalid items before publishing, counted and logged once per reason; the rest of the
   * export goes on. `keptAt` maps a kept item to its index in `items` once something was dropped.
   */
  function dropInvalid<T>(
    signal: SignalKind,
    items: T[],
    reasonOf: (item: T) => InvalidReason | undefined,
  ): { kept: T[]; keptAt: number[] | undefined; dropped: number; notes: string[] } {
    const { kept, dropped } = keepValid(items, reasonOf);
    const keptAt = kept === items ? undefined : items.flatMap((item, index) => (reasonOf(item) === undefined ? [index] : []));
    const notes: string[] = [];
    for (const [reason, count] of dropped.counts) {
      deps.metrics.droppedItems.inc({ reason }, count);
      notes.push(`${count} with ${INVALID_WORDS[reason]}`);
      if (!loggedInvalid.has(reason)) {
        loggedInvalid.add(reason);
        deps.logger.warn(
          { signal, reason, items: count },
          `dropped items with ${INVALID_WORDS[reason]}: they could never be stored or read (counted in svc_ingest_dropped_items_total; logged once)`,
        );
      }
    }
    return { kept, keptAt, dropped: dropped.total, notes };
  }

  function rejection(
    nouns: readonly [one: string, many: string],
    invalid: { dropped: number; notes: string[] },
    oversize: number,
  ): { rejected: number; message: string } {
    const notes = [...invalid.notes];
    if (oversize > 0) notes.push(`${oversize} alone larger than kafka.max_record_bytes (${deps.maxRecordBytes} bytes)`);
    const total = invalid.dropped + oversize;
    return { rejected: total, message: total === 0 ? '' : `dropped ${total} ${total === 1 ? nouns[0] : nouns[1]}: ${notes.join('; ')}` };
  }

  async function publishAll(signal: SignalKind, built: ReturnType<typeof buildSpanRecords>): Promise<'ok' | Exclude<AcceptResult, { kind: 'ok' }>> {
    if (built.droppedItems > 0) {
      deps.metrics.droppedItems.inc({ reason: 'oversize' }, built.droppedItems);
      if (!loggedOversize) {
        loggedOversize = true;
        deps.logger.warn(
          { signal, maxRecordBytes: deps.maxRecordBytes },
          'dropped items that alone exceed kafka.max_record_bytes (counted in svc_ingest_dropped_items_total; logged once)',
        );
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
        deps.logger.error(
          { err: error },
          'publishing to the bus failed; clients are told to retry (further failures are counted in svc_ingest_publish_failures_total)',
        );
      }
      return { kind: 'unavailable' };
    }
    deps.metrics.published.inc({ topic: deps.topics.signals }, built.signals.length);
    if (built.logs.length > 0) deps.metrics.published.inc({ topic: deps.topics.logs }, built.logs.length);
    loggedFailure = false;
    return 'ok';
  }

  /**
   * Waits for the records to be safe and answers. Only the records and two figures cross the wait:
   * the decoded rows (and the request's bytes their slices view) must not, since an async function
   * keeps its parameters and locals while it waits, and a wait for the disk outlasting two young
   * generation collections carried every row of the export into the old generation (garbage that
   * only a full collection frees: CPU on V8's threads, and a higher heap peak).
   */
  async function settle(
    signal: SignalKind,
    built: ReturnType<typeof buildSpanRecords>,
    stop: () => void,
    accepted: number,
    rejected: { rejected: number; message: string },
  ): Promise<AcceptResult> {
    const published = await publishAll(signal, built);
    stop();
    if (published !== 'ok') return published;
    deps.metrics.acceptedItems.inc({ signal }, accepted);
    return { kind: 'ok', ...rejected };
  }

  return {
    // Neither waits itself (settle() does), so neither keeps `decoded` while the bus syncs.
    async acceptSpans(decoded: DecodedExport<SpanRow>): Promise<AcceptResult> {
      const stop = deps.metrics.exportSeconds.startTimer({ signal: 'traces' });
      const valid = dropInvalid('traces', decoded.rows, spanInvalidReason);
      const built = buildSpanRecords(valid.kept, deps.maxRecordBytes, itemEncoder(valid, decoded.slices, deps.codec.encodeSpans));
      return settle('traces', built, stop, valid.kept.length - built.droppedItems, rejection(['span', 'spans'], valid, built.droppedItems));
    },
    async acceptLogs(decoded: DecodedExport<LogRow>): Promise<AcceptResult> {
      const stop = deps.metrics.exportSeconds.startTimer({ signal: 'logs' });
      const valid = dropInvalid('logs', decoded.rows, logInvalidReason);
      const built = buildLogRecords(valid.kept, deps.maxRecordBytes, itemEncoder(valid, decoded.slices, deps.codec.encodeLogs));
      return settle('logs', built, stop, valid.kept.length - built.droppedItems, rejection(['log record', 'log records'], valid, built.droppedItems));
    },
  };
}

export type Acceptor = ReturnType<typeof createAcceptor>;

/**
 * Frames records from the request's own bytes when it was protobuf (its rows may be skimmed, see
 * decodeTraces: never encoded); encodes the rows otherwise (JSON, or protobuf whose slices proved
 * unusable, then decoded in full).
 */
function itemEncoder<Row>(
  valid: { kept: Row[]; keptAt: number[] | undefined },
  slices: WireSlices | undefined,
  encodeRows: (rows: Row[]) => Buffer,
): ItemEncoder {
  const { kept, keptAt } = valid;
  if (slices !== undefined && slices.usable) {
    // The indices are the records' item numbers among the kept items; keptAt turns them into the request's.
    return keptAt === undefined ? (indices) => slices.frame(indices) : (indices) => slices.frame(indices.map((index) => keptAt[index]!));
  }
  // The indices are the records' item numbers within this export: all below kept.length.
  return (indices) => encodeRows(indices.map((index) => kept[index]!));
}
