/**
 * A thread of the embedded bus's file I/O (see segment-io.ts): writes a whole buffer at a position
 * (a group of log frames sealed first: their checksums filled in here, off the main thread), or
 * fdatasyncs a file, or both, synchronously on this thread, and answers with the bytes written or
 * the error's code and message. Named, so that `top -H` and the CPU benchmark tell it apart.
 */
import { fdatasyncSync, writeSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { nameThisThread } from '../../util/thread-name.js';
import { sealFrames } from './frame-seal.js';

nameThisThread('svc-bus-io');

export type SegmentIoRequest =
  | {
      seq: number;
      op: 'write';
      fd: number;
      bytes: Uint8Array;
      position: number;
      /** The bytes are whole log frames whose checksums are still to be filled in (entry-codec.ts). */
      sealFrames: boolean;
      /** fdatasync once written. */
      thenDatasync: boolean;
    }
  | { seq: number; op: 'datasync'; fd: number };

export interface SegmentIoReply {
  seq: number;
  bytesWritten: number;
  error?: { code: string | undefined; message: string };
  /** Which step the error came from (a write may run both). */
  failedAt?: 'write' | 'datasync';
}

parentPort!.on('message', (request: SegmentIoRequest) => {
  let bytesWritten = 0;
  let step: 'write' | 'datasync' = 'write';
  try {
    if (request.op === 'write') {
      if (request.sealFrames) sealFrames(request.bytes);
      while (bytesWritten < request.bytes.length) {
        bytesWritten += writeSync(request.fd, request.bytes, bytesWritten, request.bytes.length - bytesWritten, request.position + bytesWritten);
      }
    }
    if (request.op === 'datasync' || request.thenDatasync) {
      step = 'datasync';
      fdatasyncSync(request.fd);
    }
    parentPort!.postMessage({ seq: request.seq, bytesWritten } satisfies SegmentIoReply);
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    parentPort!.postMessage({ seq: request.seq, bytesWritten, error: { code, message }, failedAt: step } satisfies SegmentIoReply);
  }
});
