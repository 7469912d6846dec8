/**
 * The simulator's thin I/O shell: posts span and log rows to an OTLP/HTTP receiver as protobuf
 * (`POST /v1/traces`, `POST /v1/logs`), encoded by the project's own encoders. One export in flight
 * per signal, as the OpenTelemetry SDK exporters do; each export at most `maxExportBytes`; a
 * "retry later" answer (503 or 429) is retried after its Retry-After, and a refused connection after
 * a growing pause, until `giveUpAfterMs` has passed without progress.
 */
import type { LogRow, SignalBatch, SpanRow } from '../model/signals.js';
import { encodeLogsData } from '../otlp/encode-logs.js';
import { encodeTracesData } from '../otlp/encode-traces.js';

export interface OtlpSenderOptions {
  /** The receiver's base URL, e.g. `http://127.0.0.1:4318` (the paths are appended). */
  url: string;
  /** Upper bound of one export's body; default 2 MiB. */
  maxExportBytes?: number;
  /** Stop retrying one export after this long without an answer of 2xx; default 120 s. */
  giveUpAfterMs?: number;
  /** Called before each wait for a retry (for a progress line). */
  onRetry?: (signal: 'traces' | 'logs', reason: string, waitMs: number) => void;
}

export interface SenderTotals {
  spans: number;
  logs: number;
  exports: number;
  bytes: number;
  /** Exports answered "retry later" (503/429) or not answered (connection refused), then sent again. */
  retries: number;
}

export interface OtlpSender {
  /** Sends every row of the batch; resolves once the receiver accepted all of it. */
  send(batch: SignalBatch): Promise<void>;
  totals(): SenderTotals;
  /** Ends retrying: an export waiting to be sent again fails at once; one in flight still gets its answer. */
  stopRetrying(): void;
  /** Stops: exports in flight are abandoned, waits for retries end at once and later sends are refused. */
  close(): void;
}

export class SendError extends Error {}

const DEFAULT_MAX_EXPORT_BYTES = 2 * 1024 * 1024;
const FIRST_BACKOFF_MS = 250;
const MAX_BACKOFF_MS = 5000;

export function createOtlpSender(options: OtlpSenderOptions): OtlpSender {
  const base = options.url.replace(/\/+$/, '');
  const maxExportBytes = options.maxExportBytes ?? DEFAULT_MAX_EXPORT_BYTES;
  const giveUpAfterMs = options.giveUpAfterMs ?? 120_000;
  const totals: SenderTotals = { spans: 0, logs: 0, exports: 0, bytes: 0, retries: 0 };
  const stop = new AbortController();
  const noMoreRetries = new AbortController();
  /** The tail of each signal's queue: a send waits for the one before it, so one export per signal is in flight. */
  const tails = { traces: Promise.resolve(), logs: Promise.resolve() };
  /** Bytes an item took in the last export of its signal, to size the next one. */
  const bytesPerItem = { traces: 300, logs: 300 };

  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      if (noMoreRetries.signal.aborted) return resolve();
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        noMoreRetries.signal.removeEventListener('abort', done);
        resolve();
      }
      noMoreRetries.signal.addEventListener('abort', done);
    });

  const post = async (signal: 'traces' | 'logs', body: Buffer): Promise<void> => {
    const startedMs = Date.now();
    let backoffMs = FIRST_BACKOFF_MS;
    for (;;) {
      if (stop.signal.aborted) throw new SendError('sender closed');
      let reason: string;
      let waitMs: number;
      try {
        const response = await fetch(`${base}/v1/${signal}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-protobuf' },
          body,
          signal: stop.signal,
        });
        await response.arrayBuffer();
        if (response.ok) {
          totals.exports++;
          totals.bytes += body.length;
          return;
        }
        if (response.status !== 503 && response.status !== 429) throw new SendError(`${base}/v1/${signal} answered ${response.status}`);
        const retryAfterSecs = Number(response.headers.get('retry-after'));
        reason = `answered ${response.status}`;
        waitMs = Number.isFinite(retryAfterSecs) && retryAfterSecs > 0 ? retryAfterSecs * 1000 : backoffMs;
      } catch (error) {
        if (error instanceof SendError) throw error;
        if (stop.signal.aborted) throw new SendError('sender closed');
        reason = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
        waitMs = backoffMs;
      }
      if (noMoreRetries.signal.aborted) throw new SendError(`${base}/v1/${signal}: ${reason}; not retried (stopping)`);
      if (Date.now() - startedMs + waitMs > giveUpAfterMs)
        throw new SendError(`${base}/v1/${signal}: ${reason}; gave up after ${Math.round((Date.now() - startedMs) / 1000)} s`);
      totals.retries++;
      options.onRetry?.(signal, reason, waitMs);
      await wait(waitMs);
      if (noMoreRetries.signal.aborted) throw new SendError(`${base}/v1/${signal}: ${reason}; not retried (stopping)`);
      backoffMs = Math.min(MAX_BACKOFF_MS, backoffMs * 2);
    }
  };

  /**
   * Posts the rows in exports of at most maxExportBytes, one after another. An export ends where a
   * trace ends when it can, so that a trace's rows (which come together) arrive together.
   */
  async function sendAll<Row extends { traceId: string }>(
    signal: 'traces' | 'logs',
    rows: Row[],
    encode: (rows: Row[]) => Buffer,
    counted: (count: number) => void,
  ): Promise<void> {
    let start = 0;
    const atTraceEnd = (count: number) => {
      let end = start + count;
      while (end > start + 1 && end < rows.length && rows[end]?.traceId === rows[end - 1]?.traceId) end--;
      return end - start;
    };
    while (start < rows.length) {
      let count = atTraceEnd(Math.max(1, Math.min(rows.length - start, Math.floor((maxExportBytes * 0.8) / bytesPerItem[signal]))));
      let body = encode(rows.slice(start, start + count));
      while (body.length > maxExportBytes && count > 1) {
        count = atTraceEnd(Math.max(1, Math.floor(count / 2)));
        body = encode(rows.slice(start, start + count));
      }
      bytesPerItem[signal] = Math.max(1, body.length / count);
      await post(signal, body);
      counted(count);
      start += count;
    }
  }

  const enqueue = (signal: 'traces' | 'logs', work: () => Promise<void>): Promise<void> => {
    const next = tails[signal].then(work);
    // A failure is reported to its own caller; the queue goes on for later sends.
    tails[signal] = next.catch(() => undefined);
    return next;
  };

  return {
    async send(batch) {
      if (stop.signal.aborted) throw new SendError('sender closed');
      const spans =
        batch.spans.length === 0
          ? Promise.resolve()
          : enqueue('traces', () => sendAll<SpanRow>('traces', batch.spans, encodeTracesData, (count) => (totals.spans += count)));
      const logs =
        batch.logs.length === 0
          ? Promise.resolve()
          : enqueue('logs', () => sendAll<LogRow>('logs', batch.logs, encodeLogsData, (count) => (totals.logs += count)));
      const [spansResult, logsResult] = await Promise.allSettled([spans, logs]);
      if (spansResult.status === 'rejected') throw spansResult.reason;
      if (logsResult.status === 'rejected') throw logsResult.reason;
    },
    totals: () => ({ ...totals }),
    stopRetrying() {
      noMoreRetries.abort();
    },
    close() {
      noMoreRetries.abort();
      stop.abort();
    },
  };
}
