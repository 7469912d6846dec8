/** Writes delivery records for the queues' results, retrying briefly; a lost write is counted and logged, never thrown. */

import type { Store } from '../model/store.js';
import { recordDeliveries, type DeliveryRecord } from '../store/deliveries.js';
import type { Logger } from '../util/log.js';
import type { NotifierMetrics } from './metrics.js';
import type { Sleep } from './target-queue.js';

const RECORD_WRITE_TRIES = 3;
const RECORD_RETRY_MS = 500;
/** A record write's retry wait is not cut short by a stop: a stop still records the results of attempts in flight. */
const NEVER_ABORTED = new AbortController().signal;

export type RecordWriter = (records: DeliveryRecord[]) => Promise<void>;

export function createRecordWriter(deps: { store: Store; sleep: Sleep; metrics: NotifierMetrics; logger: Logger }): RecordWriter {
  return async (records) => {
    for (let attempt = 1; ; attempt++) {
      try {
        await recordDeliveries(deps.store, records);
        return;
      } catch (error) {
        if (attempt >= RECORD_WRITE_TRIES) {
          deps.metrics.recordFailures.inc();
          deps.logger.error(
            { err: error, alerts: records.map((r) => r.alertId) },
            'could not record delivery results (this process still will not resend them)',
          );
          return;
        }
        await deps.sleep(RECORD_RETRY_MS, NEVER_ABORTED);
      }
    }
  };
}
