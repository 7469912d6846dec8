import type { SignalCodec } from '../ingest/codec.js';
import { decodeLogsJson } from '../otlp/decode-json-logs.js';
import { decodeTracesJson } from '../otlp/decode-json-traces.js';
import { decodeLogs } from '../otlp/decode-logs.js';
import { decodeTraces } from '../otlp/decode-traces.js';
import { encodeLogsData } from '../otlp/encode-logs.js';
import { encodeTracesData } from '../otlp/encode-traces.js';
import { WireSlices } from '../otlp/wire-slices.js';

/** Ingest has no use for log ids (consumers compute them when they decode the bus records). */
const NO_IDS = { logIds: false };

/** The OTLP codec as ingest uses it. */
export const otlpCodec: SignalCodec = {
  decodeTracesProto(bytes) {
    const slices = new WireSlices(bytes);
    return { rows: decodeTraces(bytes, slices), slices };
  },
  decodeLogsProto(bytes) {
    const slices = new WireSlices(bytes);
    return { rows: decodeLogs(bytes, NO_IDS, slices), slices };
  },
  decodeTracesJson,
  decodeLogsJson: (value) => decodeLogsJson(value, NO_IDS),
  encodeSpans: encodeTracesData,
  encodeLogs: encodeLogsData,
};
