import type { LogRow, SpanRow } from '../model/signals.js';
import type { InsertFormat } from '../model/store.js';
import { decodeLogs, WITH_IDS, type LogDecodeOptions } from '../otlp/decode-logs.js';
import { logIdHash } from '../otlp/log-id.js';
import { decodeTraces } from '../otlp/decode-traces.js';
import { encodeLogRows, writeLogRowBinary } from '../store/logs.js';
import { RowBinaryWriter } from '../store/row-binary.js';
import { encodeSpanRows, writeSpanRowBinary } from '../store/spans.js';
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
  const spans = format === 'RowBinary' ? rowBinarySink(writeSpanRowBinary) : linesSink<SpanRow>((rows) => encodeSpanRows(rows, format));
  // Each log's id is hashed here, as a number (decoding with ids would make its decimal string).
  const logs =
    format === 'RowBinary'
      ? rowBinarySink<LogRow>((out, log) => writeLogRowBinary(out, log, logIdHash(log)))
      : linesSink<LogRow>((rows) => encodeLogRows(rows, format));
  const dropped = new DropTally<DropReason>();
  let badRecords = 0;
  let firstBad: RecordPayloads['firstBad'];
  let start = 0;
  for (let i = 0; i < packed.ends.length; i++) {
    const value = packed.bytes.subarray(start, packed.ends[i]);
    start = packed.ends[i];
    try {
      if (packed.logs[i] === 1) {
        for (const log of decodeLogs(value, format === 'RowBinary' ? WITHOUT_IDS : WITH_IDS)) {
          const reason = logDropReason(log, nowNs);
          if (reason === undefined) logs.add(log);
          else dropped.add(reason);
        }
      } else {
        for (const span of decodeTraces(value)) {
          const reason = spanDropReason(span, nowNs);
          if (reason === undefined) spans.add(span);
          else dropped.add(reason);
        }
      }
    } catch (error) {
      badRecords++;
      firstBad ??= { index: i, message: error instanceof Error ? error.message : String(error) };
    }
  }
  return {
    spans: spans.finish(),
    spanRows: spans.rows,
    logs: logs.finish(),
    logRows: logs.rows,
    dropped: dropped.counts,
    badRecords,
    firstBad,
  };
}

const WITHOUT_IDS: LogDecodeOptions = { logIds: false };
const EMPTY = new Uint8Array(0);

/** Where a payload's rows go as they are decoded. */
interface RowSink<Row> {
  add(row: Row): void;
  readonly rows: number;
  /** The payload (empty without rows). */
  finish(): Uint8Array;
}

/**
 * RowBinary rows are written as each record is decoded, so its rows die young: kept for the whole
 * batch (thousands of rows), they outlived the young generation's collections and were copied by
 * each of them.
 */
function rowBinarySink<Row>(write: (out: RowBinaryWriter, row: Row) => void): RowSink<Row> {
  let out: RowBinaryWriter | undefined;
  let rows = 0;
  return {
    add(row) {
      out ??= new RowBinaryWriter();
      write(out, row);
      rows++;
    },
    get rows() {
      return rows;
    },
    finish: () => (out === undefined ? EMPTY : out.finish()),
  };
}

/** Text formats encode the batch's rows together. */
function linesSink<Row>(encode: (rows: Row[]) => Uint8Array): RowSink<Row> {
  const all: Row[] = [];
  return {
    add: (row) => all.push(row),
    get rows() {
      return all.length;
    },
    finish: () => (all.length === 0 ? EMPTY : encode(all)),
  };
}
