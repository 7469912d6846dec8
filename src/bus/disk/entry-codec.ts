import { crc32 } from 'node:zlib';
import type { BusMessage, BusRecord } from '../../model/bus.js';
import { utf8Length, writeUtf8 } from '../../otlp/utf8.js';
import { FRAME_HEADER_BYTES, MAX_BODY_BYTES, sealFrames } from './frame-seal.js';

/**
 * The on-disk form of the embedded bus's log. Every entry is framed as
 *   u32 body length | u32 CRC-32 of the body | body
 * so that recovery can tell a whole entry from one torn by a crash (short or wrong CRC).
 *
 * A body starts with its kind:
 * - a record: topic, partition, offset, timestamp, key, headers, value;
 * - a snapshot, the first entry of every segment: the next offset of every partition when the
 *   segment was opened, so end offsets survive the deletion of older segments.
 *
 * A header of zeros (length 0, checksum 0) is no frame: it is where the written frames end in a
 * segment whose space was zeroed beforehand (segment-log.ts), so recovery can tell that end from
 * a torn frame.
 */

const KIND_RECORD = 1;
const KIND_SNAPSHOT = 2;

export interface LogRecordEntry {
  kind: 'record';
  topic: string;
  partition: number;
  offset: bigint;
  timestampMs: number;
  key: string;
  headers: Record<string, string> | undefined;
  value: Buffer;
}

export interface PartitionNext {
  topic: string;
  partition: number;
  nextOffset: bigint;
}

export interface LogSnapshotEntry {
  kind: 'snapshot';
  partitions: PartitionNext[];
}

export type LogEntry = LogRecordEntry | LogSnapshotEntry;

/**
 * A record's frame is written straight into its group's one buffer (writeRecordFrame) with its
 * checksum left zero, and the checksums of the whole group are filled in by sealFrames where the
 * group is written: on the bus's I/O thread. Framing and the two CRC-32 calls per record were ~5 %
 * of the all-in-one main thread at 10k spans/s + 10k logs/s (a log with a trace id is a record);
 * the value is copied into the group's buffer once, as the group's concatenation did before.
 */
/** The headers part of a record without headers: a count of zero. */
const NO_HEADERS_BYTES = Buffer.alloc(2);
/**
 * The encoded headers part of frozen headers objects. Ingest gives the records of an export
 * shared, frozen headers objects (src/ingest/records.ts): their bytes are made once, not sized
 * and written string by string for every record. Unfrozen ones may change, so are never kept.
 */
const headersBytesCache = new WeakMap<Record<string, string>, Buffer>();

/** A record's headers as the frame holds them: u16 count, then per header u16 name length, name, u32 value length, value. */
function headersBytes(headers: Record<string, string> | undefined): Buffer {
  if (headers === undefined) return NO_HEADERS_BYTES;
  const cached = headersBytesCache.get(headers);
  if (cached !== undefined) return cached;
  let bytes = 2;
  let count = 0;
  for (const name in headers) {
    bytes += 2 + utf8Length(name) + 4 + utf8Length(headers[name] ?? '');
    count += 1;
  }
  const out = Buffer.allocUnsafe(bytes);
  let at = out.writeUInt16LE(count, 0);
  for (const name in headers) {
    const value = headers[name] ?? '';
    const nameBytes = utf8Length(name);
    const valueBytes = utf8Length(value);
    at = writeUtf8(name, out, out.writeUInt16LE(nameBytes, at), nameBytes);
    at = writeUtf8(value, out, out.writeUInt32LE(valueBytes, at), valueBytes);
  }
  if (Object.isFrozen(headers)) headersBytesCache.set(headers, out);
  return out;
}

/** The last topic's UTF-8 bytes: a bus has a topic or two, and each group's records mostly share one. */
let lastTopic = '';
let lastTopicBytes = 0;

function topicBytesOf(topic: string): number {
  if (topic !== lastTopic) {
    lastTopicBytes = utf8Length(topic);
    lastTopic = topic;
  }
  return lastTopicBytes;
}

/** Bytes of a record's frame (header, metadata and value), as writeRecordFrame writes it. */
export function recordFrameBytes(topic: string, message: BusMessage): number {
  const metaBytes = 1 + 2 + topicBytesOf(topic) + 4 + 8 + 8 + 4 + utf8Length(message.key) + headersBytes(message.headers).length + 4;
  return FRAME_HEADER_BYTES + metaBytes + message.value.length;
}

/**
 * Writes a record's frame at `at` in `out` (which has recordFrameBytes(record) bytes free there),
 * its checksum zero until sealFrames fills it in; returns the frame's end. `view` is a DataView of
 * `out` (a group's frames share one): its setters cost a fraction of Buffer's write methods,
 * writeBigUInt64LE most of all.
 */
export function writeRecordFrame(out: Buffer, at: number, record: BusRecord, view = new DataView(out.buffer, out.byteOffset, out.byteLength)): number {
  const start = at;
  const topicBytes = topicBytesOf(record.topic);
  const keyBytes = utf8Length(record.key);
  const headers = headersBytes(record.headers);
  at += FRAME_HEADER_BYTES;
  out[at++] = KIND_RECORD;
  view.setUint16(at, topicBytes, true);
  at = writeUtf8(record.topic, out, at + 2, topicBytes);
  view.setUint32(at, record.partition, true);
  view.setBigUint64(at + 4, record.offset, true);
  view.setFloat64(at + 12, record.timestampMs, true);
  view.setUint32(at + 20, keyBytes, true);
  at = writeUtf8(record.key, out, at + 24, keyBytes);
  out.set(headers, at);
  at += headers.length;
  view.setUint32(at, record.value.length, true);
  out.set(record.value, at + 4);
  at += 4 + record.value.length;
  view.setUint32(start, at - start - FRAME_HEADER_BYTES, true);
  view.setUint32(start + 4, 0, true);
  return at;
}

/** A record's whole frame in a buffer of its own (checksum filled in). */
export function encodeRecordFrame(record: BusRecord): Buffer {
  const frame = Buffer.allocUnsafe(recordFrameBytes(record.topic, record));
  writeRecordFrame(frame, 0, record);
  sealFrames(frame);
  return frame;
}

/** The frame of a snapshot entry. */
export function encodeSnapshotFrame(partitions: PartitionNext[]): Buffer {
  const topics = partitions.map((entry) => Buffer.from(entry.topic));
  let bodyBytes = 1 + 4;
  for (const topic of topics) bodyBytes += 2 + topic.length + 4 + 8;
  const frame = Buffer.allocUnsafe(FRAME_HEADER_BYTES + bodyBytes);
  let at = FRAME_HEADER_BYTES;
  at = frame.writeUInt8(KIND_SNAPSHOT, at);
  at = frame.writeUInt32LE(partitions.length, at);
  partitions.forEach((entry, index) => {
    at = frame.writeUInt16LE(topics[index].length, at);
    at += topics[index].copy(frame, at);
    at = frame.writeUInt32LE(entry.partition, at);
    at = frame.writeBigUInt64LE(entry.nextOffset, at);
  });
  frame.writeUInt32LE(bodyBytes, 0);
  frame.writeUInt32LE(crc32(frame.subarray(FRAME_HEADER_BYTES)), 4);
  return frame;
}

export type FrameRead =
  | { kind: 'entry'; entry: LogEntry; frameBytes: number }
  /** The buffer ends inside the frame: read more, or at the end of a file, a torn tail. */
  | { kind: 'partial'; neededBytes: number }
  /** A header of zeros: zeroed space no frame was written into (yet). */
  | { kind: 'zeroed' }
  | { kind: 'corrupt'; reason: string };

/** Reads the frame at `at` in `buffer`. Values are copied out, so the buffer may be reused. */
export function readFrame(buffer: Buffer, at: number): FrameRead {
  if (buffer.length - at < FRAME_HEADER_BYTES) return { kind: 'partial', neededBytes: FRAME_HEADER_BYTES };
  const bodyBytes = buffer.readUInt32LE(at);
  if (bodyBytes === 0 && buffer.readUInt32LE(at + 4) === 0) return { kind: 'zeroed' };
  if (bodyBytes < 1 || bodyBytes > MAX_BODY_BYTES) return { kind: 'corrupt', reason: `frame length ${bodyBytes}` };
  const frameBytes = FRAME_HEADER_BYTES + bodyBytes;
  if (buffer.length - at < frameBytes) return { kind: 'partial', neededBytes: frameBytes };
  const body = buffer.subarray(at + FRAME_HEADER_BYTES, at + frameBytes);
  if (crc32(body) !== buffer.readUInt32LE(at + 4)) return { kind: 'corrupt', reason: 'checksum mismatch' };
  try {
    return { kind: 'entry', entry: decodeBody(body), frameBytes };
  } catch (error) {
    return { kind: 'corrupt', reason: error instanceof Error ? error.message : String(error) };
  }
}

function decodeBody(body: Buffer): LogEntry {
  let at = 0;
  const kind = body.readUInt8(at++);
  if (kind === KIND_SNAPSHOT) {
    const count = body.readUInt32LE(at);
    at += 4;
    const partitions: PartitionNext[] = [];
    for (let i = 0; i < count; i++) {
      const topicLength = body.readUInt16LE(at);
      at += 2;
      const topic = body.toString('utf8', at, (at += topicLength));
      const partition = body.readUInt32LE(at);
      const nextOffset = body.readBigUInt64LE(at + 4);
      at += 12;
      partitions.push({ topic, partition, nextOffset });
    }
    return { kind: 'snapshot', partitions };
  }
  if (kind !== KIND_RECORD) throw new Error(`unknown entry kind ${kind}`);
  const topicLength = body.readUInt16LE(at);
  at += 2;
  const topic = body.toString('utf8', at, (at += topicLength));
  const partition = body.readUInt32LE(at);
  const offset = body.readBigUInt64LE(at + 4);
  const timestampMs = body.readDoubleLE(at + 12);
  at += 20;
  const keyLength = body.readUInt32LE(at);
  at += 4;
  const key = body.toString('utf8', at, (at += keyLength));
  const headerCount = body.readUInt16LE(at);
  at += 2;
  let headers: Record<string, string> | undefined;
  for (let i = 0; i < headerCount; i++) {
    const nameLength = body.readUInt16LE(at);
    at += 2;
    const name = body.toString('utf8', at, (at += nameLength));
    const valueLength = body.readUInt32LE(at);
    at += 4;
    (headers ??= {})[name] = body.toString('utf8', at, (at += valueLength));
  }
  const valueLength = body.readUInt32LE(at);
  at += 4;
  if (at + valueLength !== body.length) throw new Error('record length mismatch');
  // A copy: the caller's read buffer is reused for the next chunk.
  const value = Buffer.from(body.subarray(at, at + valueLength));
  return { kind: 'record', topic, partition, offset, timestampMs, key, headers, value };
}
