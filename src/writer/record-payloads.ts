import type { LogRow, SpanRow } from '../model/signals.js';
import type { InsertFormat } from '../model/store.js';
import { decodeLogs } from '../otlp/decode-logs.js';
import { decodeTraces } from '../otlp/decode-traces.js';
import { encodeLogRows } from '../store/logs.js';
import { encodeSpanRows } from '../store/spans.js';
import { DropTally } from '../otlp/item-validity.js';
import { logDropReason, spanDropReason, type DropReason } from '../store/drop-reason.js';

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
  /** Items the store would never return, by reason: stamped 0, older than the raw lifetime at `nowMs`, past 2262, all-zero ids. */
  dropped: Map<DropReason, number>;
  /** Records that do not decode: skipped (the first one's index and error are reported). */
  badRecords: number;
  firstBad?: { index: number; message: string };
}

/**
 * Decodes OTLP record values and encodes the storable rows straight into the insert payloads.
 * Pure, so it runs the same on the writer's encoder thread and inline.
 */
export function encodeRecordPayloads(packed: PackedRecords, nowMs: number, format: InsertFormat): RecordPayloads {
  const nowNs = BigInt(nowMs) * 1_000_000n;
  const spans: SpanRow[] = [];
  const logs: LogRow[] = [];
  const dropped = new DropTally<DropReason>();
  let badRecords = 0;
  let firstBad: RecordPayloads['firstBad'];
  let start = 0;
  for (let i = 0; i < packed.ends.length; i++) {
    const value = packed.bytes.subarray(start, packed.ends[i]);
    start = packed.ends[i];
    try {
      if (packed.logs[i] === 1) {
        for (const log of decodeLogs(value)) {
          const reason = logDropReason(log, nowNs);
          if (reason === undefined) logs.push(log);
          else dropped.add(reason);
        }
      } else {
        for (const span of decodeTraces(value)) {
          const reason = spanDropReason(span, nowNs);
          if (reason === undefined) spans.push(span);
          else dropped.add(reason);
        }
      }
    } catch (error) {
      badRecords++;
      firstBad ??= { index: i, message: error instanceof Error ? error.message : String(error) };
    }
  }
  return {
    spans: spans.length > 0 ? encodeSpanRows(spans, format) : EMPTY,
    spanRows: spans.length,
    logs: logs.length > 0 ? encodeLogRows(logs, format) : EMPTY,
    logRows: logs.length,
    dropped: dropped.counts,
    badRecords,
    firstBad,
  };
}

const EMPTY = new Uint8Array(0);
