import { Worker } from 'node:worker_threads';

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

interface Waiter {
  resolve: (lines: FingerprintedLines) => void;
  reject: (error: Error) => void;
}

/**
 * The main side of the fingerprint thread: each chunk is copied into a buffer of its own and
 * transferred there, and comes back with its lines' fingerprints. Nothing is shared, so nothing
 * waits on the other thread's garbage collection: chunks of bytes kept alive by a thread that
 * allocates almost nothing had added ~90 MB of memory in an earlier design.
 */
export class FingerprintWorker implements FingerprintSource {
  private readonly worker: Worker;
  private readonly waiting = new Map<number, Waiter>();
  private started = false;
  private failure: Error | null = null;
  private sent = 0;
  /** Settles once the thread has started and takes chunks (or has failed). */
  readonly whenStarted: Promise<void>;
  private markStarted: () => void = () => {};

  constructor(keepHttpStatus: boolean) {
    this.whenStarted = new Promise<void>((resolve) => (this.markStarted = resolve));
    this.worker = new Worker(new URL('./fingerprint-thread.js', import.meta.url), { workerData: { keepHttpStatus } });
    this.worker.on('message', (message: ChunkReply | 'ready') => {
      if (message === 'ready') {
        this.started = true;
        this.markStarted();
        return;
      }
      const waiter = this.waiting.get(message.seq);
      this.waiting.delete(message.seq);
      waiter?.resolve({
        bytes: Buffer.from(message.bytes),
        lineCount: message.lineCount,
        ranges: new Int32Array(message.ranges),
        fingerprints: new Float64Array(message.fingerprints),
      });
    });
    const fail = (error: Error): void => {
      this.failure = error;
      this.markStarted();
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the fingerprint thread exited (${code})`)));
  }

  ready(): boolean {
    return this.started || this.failure !== null;
  }

  fingerprint(bytes: Buffer): Promise<FingerprintedLines> {
    if (this.failure !== null) return Promise.reject(this.failure);
    const copy = new Uint8Array(bytes.length);
    copy.set(bytes);
    const seq = this.sent++;
    const result = new Promise<FingerprintedLines>((resolve, reject) => this.waiting.set(seq, { resolve, reject }));
    // Awaited in input order, later: a failure meanwhile must not count as unhandled.
    result.catch(() => {});
    const request: ChunkRequest = { seq, bytes: copy.buffer };
    this.worker.postMessage(request, [copy.buffer]);
    return result;
  }

  async close(): Promise<void> {
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
  }
}
