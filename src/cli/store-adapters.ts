import type { Store } from '../model/store.js';
import { insertLogLines } from '../store/logs.js';
import { insertSpanLines } from '../store/spans.js';
import type { SignalSink } from '../writer/batcher.js';

/** The writer's sink over the store. */
export function createSignalSink(store: Store): SignalSink {
  return {
    writeSpans: (payload) => insertSpanLines(store, payload),
    writeLogs: (payload) => insertLogLines(store, payload),
  };
}
