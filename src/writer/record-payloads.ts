import type { LogRow, SpanRow } from '../model/signals.js';
import { decodeLogs } from '../otlp/decode-logs.js';
import { decodeTraces } from '../otlp/decode-traces.js';
import { encodeLogLines } from '../store/logs.js';
import { encodeSpanLines } from '../store/spans.js';
import { isStorable } from './retention.js';

/**
 * A batch of bus record values packed into one buffer, so that it crosses to the encoder thread as
 * one transferable allocation (a record's Buffer is often a view of a larger read buffer, which a
 * structured clone would copy whole).
 */
export interface PackedRecords {
  bytes: Uint8Array;
  /** End offset of each record in `bytes`; record i spans [ends[i-1] ?? 0, ends[i]). */
  ends: Uint32Array;
  /** 1 where the record holds logs (`LogsData`), 0 for spans (`TracesData`). */
  logs: Uint8Array;
}

/** What the writer inserts for a packed batch, plus what it dropped. */
export interface RecordPayloads {
  spans: Uint8Array;
  spanRows: number;
  logs: Uint8Array;
  logRows: number;
  /** Items stamped 0 or older than the raw lifetime at `nowMs`. */
  tooOld: number;
  /** Records that do not decode: skipped (the first one's index and error are reported). */
  badRecords: number;
  firstBad?: { index: number; message: string };
}

/**
 * Decodes OTLP record values and encodes the storable rows straight into the insert payloads.
 * Pure, so it runs the same on the writer's encoder thread and inline.
 */
export function encodeRecordPayloads(packed: PackedRecords, nowMs: number): RecordPayloads {
  const nowNs = BigInt(nowMs) * 1_000_000n;
  const spans: SpanRow[] = [];
  const logs: LogRow[] = [];
  let tooOld = 0;
  let badRecords = 0;
  let firstBad: RecordPayloads['firstBad'];
  let start = 0;
  for (let i = 0; i < packed.ends.length; i++) {
    const value = packed.bytes.subarray(start, packed.ends[i]);
    start = packed.ends[i];
    try {
      if (packed.logs[i] === 1) {
        for (const log of decodeLogs(value)) if (isStorable(log.tsNs, nowNs)) logs.push(log); else tooOld++;
      } else {
        for (const span of decodeTraces(value)) if (isStorable(span.startNs, nowNs)) spans.push(span); else tooOld++;
      }
    } catch (error) {
      badRecords++;
      firstBad ??= { index: i, message: error instanceof Error ? error.message : String(error) };
    }
  }
  return {
    spans: spans.length > 0 ? encodeSpanLines(spans) : EMPTY,
    spanRows: spans.length,
    logs: logs.length > 0 ? encodeLogLines(logs) : EMPTY,
    logRows: logs.length,
    tooOld,
    badRecords,
    firstBad,
  };
}

const EMPTY = new Uint8Array(0);
