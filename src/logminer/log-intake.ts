/** The logs of a bus batch the logminer mines: decoded, and those the writer would not store left out (counted). */

import { SIGNAL_HEADER, type BusRecord } from '../model/bus.js';
import type { LogRow } from '../model/signals.js';
import { DropTally } from '../otlp/item-validity.js';
import { RecordDecoder } from '../otlp/record-decoder.js';
import { logDropReason, type DropReason } from '../store/drop-reason.js';
import type { Logger } from '../util/log.js';
import type { LogminerMetrics } from './metrics.js';

export type LogIntake = (records: readonly BusRecord[], nowMs: number) => LogRow[];

export function createLogIntake(deps: { logger: Logger; metrics: LogminerMetrics }): LogIntake {
  const decoder = new RecordDecoder({
    logger: deps.logger,
    countBad: () => deps.metrics.dropped.inc({ reason: 'bad_record' }),
    counterName: 'svc_logminer_dropped_items_total',
  });

  function decode(record: BusRecord): LogRow[] {
    const signal = record.headers?.[SIGNAL_HEADER];
    if (signal !== undefined && signal !== 'logs') return [];
    return decoder.logs(record.value, record);
  }

  return (records, nowMs) => {
    const nowNs = BigInt(nowMs) * 1_000_000n;
    const logs: LogRow[] = [];
    const dropped = new DropTally<DropReason>();
    for (const record of records) {
      for (const log of decode(record)) {
        // Hits of logs the writer does not store would point at nothing (and expire at once).
        const reason = logDropReason(log, nowNs);
        if (reason === undefined) logs.push(log);
        else dropped.add(reason);
      }
    }
    for (const [reason, items] of dropped.counts) deps.metrics.dropped.inc({ reason }, items);
    return logs;
  };
}
