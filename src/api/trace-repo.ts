import type { Store } from '../model/store.js';
import { getTraceLogs } from '../store/logs.js';
import { listServices } from '../store/services.js';
import { getTraceSpans } from '../store/spans.js';
import { storyIdOfTrace } from '../store/story-ids.js';
import type { TraceRepo } from './repo.js';

/** The API's trace reads over the store, each bounded by query_timeout_secs. */
export function createTraceRepo(store: Store, timeoutSecs: number): TraceRepo {
  return {
    traceSpans: (traceId, signal) => getTraceSpans(store, traceId, { timeoutSecs, signal }),
    traceLogs: (traceId, signal) => getTraceLogs(store, traceId, { timeoutSecs, signal }),
    traceStoryId: (traceId, nowMs, signal) => storyIdOfTrace(store, traceId, nowMs, { timeoutSecs, signal }),
    services: (nowMs, signal) => listServices(store, nowMs, { timeoutSecs, signal }),
  };
}
