import type { LogRow, SpanRow } from '../model/signals.js';
import type { WireSlices } from '../otlp/wire-slices.js';

/** An export's decoded items, and for protobuf where each lies in the request (to frame records from). */
export interface DecodedExport<Row> {
  rows: Row[];
  slices?: WireSlices;
}

/** What ingest needs from the OTLP codec; injected so the transport shells stay thin. */
export interface SignalCodec {
  decodeTracesProto(bytes: Uint8Array): DecodedExport<SpanRow>;
  decodeLogsProto(bytes: Uint8Array): DecodedExport<LogRow>;
  decodeTracesJson(value: unknown): SpanRow[];
  decodeLogsJson(value: unknown): LogRow[];
  encodeSpans(spans: SpanRow[]): Buffer;
  encodeLogs(logs: LogRow[]): Buffer;
}
