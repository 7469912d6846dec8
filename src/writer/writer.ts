import type { Registry } from 'prom-client';
import type { Bus, BusConsumer, BusRecord } from '../model/bus.js';
import type { Component } from '../model/component.js';
import type { WriterSettings } from '../config/settings.js';
import type { Logger } from '../util/log.js';
import { createLogOnce } from '../util/log-once.js';
import { Batcher, type SignalSink } from './batcher.js';
import { createWriterMetrics } from './metrics.js';
import { createPayloadEncoder } from './payload-encoder.js';
import { STORE_WRITE_BACKOFF } from '../util/retry.js';

export const WRITER_GROUP = 'svc-writer';

export interface WriterDeps {
  bus: Bus;
  sink: SignalSink;
  /** Decode and encode on a thread of their own (default); false keeps them on the caller's thread. */
  encoderThread?: boolean;
  registry: Registry;
  logger: Logger;
  nowMs?: () => number;
}

/** The writer: stores raw spans and logs from the signals topic in batches, committing only what is stored. */
export function createWriter(settings: { writer: WriterSettings; topic: string }, deps: WriterDeps): Component {
  const logger = deps.logger.child({ component: 'writer' });
  const metrics = createWriterMetrics(deps.registry);
  const nowMs = deps.nowMs ?? Date.now;
  const logOnce = createLogOnce();
  const batcher = new Batcher(deps.sink, {
    maxRows: settings.writer.max_rows,
    maxAgeMs: settings.writer.max_age_ms,
    backoff: STORE_WRITE_BACKOFF,
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

  const encoder = createPayloadEncoder({ threaded: deps.encoderThread ?? true, format: deps.sink.format });

  async function handle(records: BusRecord[]): Promise<void> {
    const encoded = await encoder.encode(records, nowMs());
    if (encoded.firstBad !== undefined) {
      metrics.dropped.inc({ reason: 'bad_record' }, encoded.badRecords);
      const firstBad = encoded.firstBad;
      logOnce('bad_record', () => {
        const record = records[firstBad.index];
        logger.error(
          { err: { message: firstBad.message }, topic: record.topic, partition: record.partition, offset: String(record.offset) },
          'skipping an undecodable bus record (further ones are counted in svc_writer_dropped_items_total; logged once)',
        );
      });
    }
    for (const [reason, items] of encoded.dropped) {
      metrics.dropped.inc({ reason }, items);
      logOnce(reason, () =>
        logger.warn(
          { items, reason },
          'dropped items the store would never return: stamped 0, older than 3 days or past 2262, or with an all-zero trace or span id (counted in svc_writer_dropped_items_total by reason; logged once per reason)',
        ),
      );
    }
    const stored = batcher.add(encoded);
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
      await encoder.close();
    },
  };
}
