import type { SignalCodec } from '../ingest/codec.js';
import { decodeLogsJson } from '../otlp/decode-json-logs.js';
import { decodeTracesJson } from '../otlp/decode-json-traces.js';
import { decodeLogs } from '../otlp/decode-logs.js';
import { decodeTraces } from '../otlp/decode-traces.js';
import { encodeLogsData } from '../otlp/encode-logs.js';
import { encodeTracesData } from '../otlp/encode-traces.js';

/** The OTLP codec as ingest and the writer use it. */
export const otlpCodec: SignalCodec = {
  decodeTracesProto: decodeTraces,
  decodeLogsProto: decodeLogs,
  decodeTracesJson,
  decodeLogsJson,
  encodeSpans: encodeTracesData,
  encodeLogs: encodeLogsData,
};
