import { open } from 'node:fs/promises';
import { WorkerRpc } from '../../util/worker-rpc.js';
import { nodeDiskFs, type DiskFile, type DiskFs } from './disk-fs.js';
import type { SegmentIoReply, SegmentIoRequest } from './segment-io-thread.js';

/**
 * The embedded bus's writes and fdatasyncs on threads of their own ("svc-bus-io"), not on libuv's
 * pool. The pool has 4 threads, which embedded-engine calls also occupy for the length of an
 * insert or a query: a sync queued behind them waits, and every export in its group waits with it.
 * Two threads, one writing and one syncing, so the segment log's pipeline (the next group written
 * while the one before it syncs) runs in parallel. Everything else (opens, reads, the small files)
 * stays on node's asynchronous calls.
 */
export interface SegmentIo {
  /** node's file system, with writes and fdatasyncs of files opened for writing done on the I/O threads. */
  fs: DiskFs;
  /** Stops the threads (after the bus closed its files). */
  close(): Promise<void>;
}

type Rpc = WorkerRpc<SegmentIoRequest, SegmentIoReply>;

function startThread(): Rpc {
  return new WorkerRpc<SegmentIoRequest, SegmentIoReply>(new URL('./segment-io-thread.js', import.meta.url), {
    name: "the embedded bus's I/O thread",
    idleUnref: true,
  });
}

/** The reply's error as node's calls throw it (with its errno code), or the reply. */
function checked(reply: SegmentIoReply): SegmentIoReply {
  if (reply.error === undefined) return reply;
  throw Object.assign(new Error(reply.error.message), { code: reply.error.code });
}

export function createSegmentIo(): SegmentIo {
  const writer = startThread();
  const syncer = startThread();
  const fs: DiskFs = {
    ...nodeDiskFs,
    async open(path, flags) {
      const handle = await open(path, flags);
      if (flags === 'r') return handle;
      const file: DiskFile = {
        write: async (buffer, offset, length, position) => {
          // Copied to the thread (the caller keeps its buffer); the thread writes all of it.
          const bytes = buffer.subarray(offset, offset + length);
          const reply = checked(await writer.request({ op: 'write', fd: handle.fd, bytes, position, sealFrames: false, thenDatasync: false }));
          return { bytesWritten: reply.bytesWritten };
        },
        datasync: async () => void checked(await syncer.request({ op: 'datasync', fd: handle.fd })),
        // A group written behind a running sync goes to the writing thread; one written and
        // synced in one call to the syncing thread, where it runs only when no sync is running
        // (segment-log.ts). Either thread fills the frames' checksums in, off this thread.
        // A buffer that is its memory's sole view moves to the thread instead of being copied:
        // a group is hundreds of KiB, and the copy (made on this thread, unpacked on that one)
        // was malloc churn in both threads' arenas.
        writeFrames: async (frames, position, thenDatasync) => {
          const transfer = ownsWholeMemory(frames) ? [frames.buffer as ArrayBuffer] : [];
          const thread = thenDatasync ? syncer : writer;
          const reply = await thread.request({ op: 'write', fd: handle.fd, bytes: frames, position, sealFrames: true, thenDatasync }, transfer);
          if (reply.error === undefined) return {};
          const error = Object.assign(new Error(reply.error.message), { code: reply.error.code });
          return { failedAt: reply.failedAt ?? 'write', error };
        },
        read: (buffer, offset, length, position) => handle.read(buffer, offset, length, position),
        writeFile: (data) => handle.writeFile(data),
        truncate: (lengthBytes) => handle.truncate(lengthBytes),
        sync: () => handle.sync(),
        close: () => handle.close(),
      };
      return file;
    },
  };
  return {
    fs,
    close: async () => {
      await Promise.all([writer.close(), syncer.close()]);
    },
  };
}

/** A view may be transferred only when nothing else shares its memory: small Buffers share a pool. */
function ownsWholeMemory(view: Uint8Array): boolean {
  return view.byteLength > 0 && view.byteOffset === 0 && view.byteLength === view.buffer.byteLength && view.buffer instanceof ArrayBuffer;
}
