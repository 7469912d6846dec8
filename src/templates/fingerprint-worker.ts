import { WorkerRpc } from '../util/worker-rpc.js';

/** A chunk for the thread: bytes of whole lines (ending with a newline), transferred. */
export interface ChunkRequest {
  seq: number;
  bytes: ArrayBuffer;
}

/** The chunk back, with its lines' ranges (two entries a line) and fingerprints; all transferred. */
export interface ChunkReply {
  seq: number;
  bytes: ArrayBuffer;
  lineCount: number;
  ranges: ArrayBuffer;
  fingerprints: ArrayBuffer;
}

/** A chunk's lines: start and end offsets into `bytes` (two entries a line) and fingerprints, `lineCount` of each. */
export interface FingerprintedLines {
  bytes: Buffer;
  lineCount: number;
  ranges: Int32Array;
  fingerprints: Float64Array;
}

/** Where chunks get fingerprinted once the input is big enough: another thread. */
export interface FingerprintSource {
  /** Whether the other thread has started and takes chunks (until then this thread fingerprints them). */
  ready(): boolean;
  /** Fingerprints the lines of `bytes` (which end with a newline) there; `bytes` may be reused at once. */
  fingerprint(bytes: Buffer): Promise<FingerprintedLines>;
  close(): Promise<void>;
}

/**
 * The main side of the fingerprint thread: each chunk is copied into a buffer of its own and
 * transferred there, and comes back with its lines' fingerprints. Nothing is shared, so nothing
 * waits on the other thread's garbage collection: chunks of bytes kept alive by a thread that
 * allocates almost nothing had added ~90 MB of memory in an earlier design.
 */
export class FingerprintWorker implements FingerprintSource {
  private readonly thread: WorkerRpc<ChunkRequest, ChunkReply>;
  private started = false;
  /** Settles once the thread has started and takes chunks (or has failed). */
  readonly whenStarted: Promise<void>;
  private markStarted: () => void = () => {};

  constructor(keepHttpStatus: boolean) {
    this.whenStarted = new Promise<void>((resolve) => (this.markStarted = resolve));
    this.thread = new WorkerRpc(new URL('./fingerprint-thread.js', import.meta.url), {
      name: 'the fingerprint thread',
      workerData: { keepHttpStatus },
      onSignal: (message) => {
        if (message !== 'ready') return;
        this.started = true;
        this.markStarted();
      },
      onFailure: () => this.markStarted(),
    });
  }

  ready(): boolean {
    return this.started || this.thread.failed !== null;
  }

  fingerprint(bytes: Buffer): Promise<FingerprintedLines> {
    const copy = new Uint8Array(bytes.length);
    copy.set(bytes);
    const result = this.thread.request({ bytes: copy.buffer }, [copy.buffer]).then((reply) => ({
      bytes: Buffer.from(reply.bytes),
      lineCount: reply.lineCount,
      ranges: new Int32Array(reply.ranges),
      fingerprints: new Float64Array(reply.fingerprints),
    }));
    // Awaited in input order, later: a failure meanwhile must not count as unhandled.
    result.catch(() => {});
    return result;
  }

  async close(): Promise<void> {
    await this.thread.close();
  }
}
