import type { Store } from '../model/store.js';
import { insertLogRows } from '../store/logs.js';
import { insertSpanRows } from '../store/spans.js';
import type { SignalSink } from '../writer/batcher.js';

/** The writer's sink over the store, in the store's bulk format. */
export function createSignalSink(store: Store): SignalSink {
  const format = store.bulkFormat ?? 'JSONCompactEachRow';
  return {
    format,
    writeSpans: (payload) => insertSpanRows(store, payload, format),
    writeLogs: (payload) => insertLogRows(store, payload, format),
  };
}
