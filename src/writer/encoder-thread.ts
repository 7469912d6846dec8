/**
 * The writer's encoder thread: decodes bus records and encodes insert payloads off the main thread,
 * which in all-in-one also runs ingest, the assembler and the logminer. Pure work, no I/O: chDB stays
 * on the main thread (a thread that used chDB must live as long as the process).
 */
import { parentPort } from 'node:worker_threads';
import type { InsertFormat } from '../model/store.js';
import { nameThisThread } from '../util/thread-name.js';
import { releaseBytes } from './release-bytes.js';
import { encodeRecordPayloads, type PackedRecords, type RecordPayloads } from './record-payloads.js';

nameThisThread('svc-encoder');

export interface EncodeRequest {
  seq: number;
  packed: PackedRecords;
  nowMs: number;
  format: InsertFormat;
}

export interface EncodeReply {
  seq: number;
  payloads: RecordPayloads;
}

parentPort!.on('message', (request: EncodeRequest) => {
  const payloads = encodeRecordPayloads(request.packed, request.nowMs, request.format);
  // The records' bytes, made on the writer's thread, go back to the allocator now rather than
  // when this thread's collector next finds them dead.
  releaseBytes(request.packed.bytes);
  const reply: EncodeReply = { seq: request.seq, payloads };
  parentPort!.postMessage(
    reply,
    [payloads.spans, payloads.logs].filter(ownsWholeBuffer).map((view) => view.buffer as ArrayBuffer),
  );
});

/** Only a view that is its buffer's sole user may be transferred: small Buffers share a pool. */
function ownsWholeBuffer(view: Uint8Array): boolean {
  return view.byteLength > 0 && view.byteOffset === 0 && view.byteLength === view.buffer.byteLength;
}
