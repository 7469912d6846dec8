import type { Registry } from 'prom-client';
import { SIGNAL_HEADER, type Bus, type BusConsumer, type BusRecord } from '../model/bus.js';
import type { Component } from '../model/component.js';
import type { LogRow, SpanRow } from '../model/signals.js';
import type { WriterSettings } from '../config/settings.js';
import type { Logger } from '../util/log.js';
import { takeRows } from '../bus/decoded-rows.js';
import { Batcher, type SignalSink } from './batcher.js';
import { createWriterMetrics } from './metrics.js';
import { DropTally } from '../otlp/item-validity.js';
import { logDropReason, spanDropReason, type DropReason } from './retention.js';

export const WRITER_GROUP = 'svc-writer';

export interface WriterDeps {
  bus: Bus;
  sink: SignalSink;
  decodeSpans(bytes: Uint8Array): SpanRow[];
  decodeLogs(bytes: Uint8Array): LogRow[];
  registry: Registry;
  logger: Logger;
  nowMs?: () => number;
}

/** The writer: stores raw spans and logs from the signals topic in batches, committing only what is stored. */
export function createWriter(settings: { writer: WriterSettings; topic: string }, deps: WriterDeps): Component {
  const logger = deps.logger.child({ component: 'writer' });
  const metrics = createWriterMetrics(deps.registry);
  const nowMs = deps.nowMs ?? Date.now;
  const loggedDrops = new Set<DropReason>();
  let loggedBadRecord = false;
  const batcher = new Batcher(deps.sink, {
    maxRows: settings.writer.max_rows,
    maxAgeMs: settings.writer.max_age_ms,
    retryBaseMs: 250,
    retryMaxMs: 10_000,
    nowMs,
    onFlushed(spans, logs, seconds) {
      metrics.rowsWritten.inc({ table: 'spans' }, spans);
      metrics.rowsWritten.inc({ table: 'logs' }, logs);
      metrics.flushSeconds.observe(seconds);
      metrics.bufferedRows.set(batcher.bufferedRows);
    },
    onInsertFailure(error, attempt) {
      metrics.insertFailures.inc();
      if (attempt === 1) logger.error({ err: error }, 'batch insert failed; retrying with backoff');
    },
  });
  let consumer: BusConsumer | undefined;

  function decodeRecord(record: BusRecord): { spans: SpanRow[]; logs: LogRow[] } {
    const signal = record.headers?.[SIGNAL_HEADER];
    // In all-in-one the record is the Buffer ingest encoded: its rows are at hand, no decode needed.
    const known = takeRows(record.value);
    if (known !== undefined) return signal === 'logs' ? { spans: [], logs: known as LogRow[] } : { spans: known as SpanRow[], logs: [] };
    try {
      if (signal === 'logs') return { spans: [], logs: deps.decodeLogs(record.value) };
      return { spans: deps.decodeSpans(record.value), logs: [] };
    } catch (error) {
      metrics.dropped.inc({ reason: 'bad_record' });
      if (!loggedBadRecord) {
        loggedBadRecord = true;
        logger.error({ err: error, topic: record.topic, partition: record.partition, offset: String(record.offset) }, 'skipping an undecodable bus record (further ones are counted in svc_writer_dropped_items_total; logged once)');
      }
      return { spans: [], logs: [] };
    }
  }

  async function handle(records: BusRecord[]): Promise<void> {
    const nowNs = BigInt(nowMs()) * 1_000_000n;
    const spans: SpanRow[] = [];
    const logs: LogRow[] = [];
    const dropped = new DropTally<DropReason>();
    for (const record of records) {
      const decoded = decodeRecord(record);
      for (const span of decoded.spans) {
        const reason = spanDropReason(span, nowNs);
        if (reason === undefined) spans.push(span); else dropped.add(reason);
      }
      for (const log of decoded.logs) {
        const reason = logDropReason(log, nowNs);
        if (reason === undefined) logs.push(log); else dropped.add(reason);
      }
    }
    for (const [reason, items] of dropped.counts) {
      metrics.dropped.inc({ reason }, items);
      if (!loggedDrops.has(reason)) {
        loggedDrops.add(reason);
        logger.warn({ items, reason }, 'dropped items the store would never return: stamped 0, older than 3 days or past 2262, or with an all-zero trace or span id (counted in svc_writer_dropped_items_total by reason; logged once per reason)');
      }
    }
    const stored = batcher.add(spans, logs);
    metrics.bufferedRows.set(batcher.bufferedRows);
    await stored;
  }

  return {
    async start() {
      consumer = deps.bus.consume({
        group: WRITER_GROUP,
        topics: [settings.topic],
        handler: handle,
        // Enough batches in flight for a full group commit of max_rows rows.
        maxInFlightBatches: 512,
        maxBatchRecords: 500,
      });
      logger.info({ maxRows: settings.writer.max_rows, maxAgeMs: settings.writer.max_age_ms }, 'writer consuming');
    },
    async close() {
      // Stop taking new batches first, then store what is buffered so the bus can commit it.
      const closingConsumer = consumer?.close();
      await batcher.close();
      await closingConsumer;
    },
  };
}
