import type { TraceRepo } from '../api/repo.js';
import type { Store } from '../model/store.js';
import { getTraceLogs, insertLogLines } from '../store/logs.js';
import { listServices } from '../store/services.js';
import { getTraceSpans, insertSpanLines } from '../store/spans.js';
import { storyIdOfTrace } from '../store/story-ids.js';
import type { SignalSink } from '../writer/batcher.js';

/** The writer's sink over the store. */
export function createSignalSink(store: Store): SignalSink {
  return {
    writeSpans: (payload) => insertSpanLines(store, payload),
    writeLogs: (payload) => insertLogLines(store, payload),
  };
}

/** The API's trace reads over the store, each bounded by query_timeout_secs. */
export function createTraceRepo(store: Store, timeoutSecs: number): TraceRepo {
  return {
    traceSpans: (traceId, signal) => getTraceSpans(store, traceId, { timeoutSecs, signal }),
    traceLogs: (traceId, signal) => getTraceLogs(store, traceId, { timeoutSecs, signal }),
    traceStoryId: (traceId, signal) => storyIdOfTrace(store, traceId, Date.now(), { timeoutSecs, signal }),
    services: (nowMs, signal) => listServices(store, nowMs, { timeoutSecs, signal }),
  };
}
