import type { LogRow, SpanRow } from '../model/signals.js';

/** What ingest needs from the OTLP codec; injected so the transport shells stay thin. */
export interface SignalCodec {
  decodeTracesProto(bytes: Uint8Array): SpanRow[];
  decodeLogsProto(bytes: Uint8Array): LogRow[];
  decodeTracesJson(value: unknown): SpanRow[];
  decodeLogsJson(value: unknown): LogRow[];
  encodeSpans(spans: SpanRow[]): Buffer;
  encodeLogs(logs: LogRow[]): Buffer;
}
