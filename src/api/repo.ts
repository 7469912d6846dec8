import type { LogRow, SpanRow } from '../model/signals.js';

/** The reads the API's trace routes need; implemented over the store, injected for the shells. */
export interface TraceRepo {
  traceSpans(traceId: string, signal?: AbortSignal): Promise<SpanRow[]>;
  traceLogs(traceId: string, signal?: AbortSignal): Promise<LogRow[]>;
  /** The story id of a trace, or null when it has none; `nowMs` bounds how far back stories are looked for. */
  traceStoryId(traceId: string, nowMs: number, signal?: AbortSignal): Promise<string | null>;
  services(nowMs: number, signal?: AbortSignal): Promise<string[]>;
}
