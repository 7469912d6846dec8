import type { SignalCodec } from '../ingest/codec.js';
import { decodeLogsJson } from '../otlp/decode-json-logs.js';
import { decodeTracesJson } from '../otlp/decode-json-traces.js';
import { decodeLogs } from '../otlp/decode-logs.js';
import { decodeTraces } from '../otlp/decode-traces.js';
import { encodeLogsData } from '../otlp/encode-logs.js';
import { encodeTracesData } from '../otlp/encode-traces.js';

/** Ingest has no use for log ids (consumers compute them when they decode the bus records). */
const NO_IDS = { logIds: false };

/** The OTLP codec as ingest uses it. */
export const otlpCodec: SignalCodec = {
  decodeTracesProto: decodeTraces,
  decodeLogsProto: (bytes) => decodeLogs(bytes, NO_IDS),
  decodeTracesJson,
  decodeLogsJson: (value) => decodeLogsJson(value, NO_IDS),
  encodeSpans: encodeTracesData,
  encodeLogs: encodeLogsData,
};
