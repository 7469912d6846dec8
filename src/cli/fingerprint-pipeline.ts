import { Worker } from 'node:worker_threads';
import type { MaskOptions } from '../mining/masking.js';
import { allBlocksDone, fingerprintClaimedBlocks, shareLines, type ChunkLines } from './chunk-lines.js';

/** What the thread is sent per chunk: the text, and its lines in shared memory. */
export interface ChunkMessage {
  seq: number;
  text: string;
  buffer: SharedArrayBuffer;
  lineCount: number;
}

/** Gives a chunk's lines and fingerprints; called in input order, when the chunk is to be mined. */
export type TakeLines = () => Promise<ChunkLines>;

interface Waiter {
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * The main side of the fingerprint thread. Every chunk is split into lines here and shared with
 * the thread, which fingerprints them a block of lines at a time, chunk after chunk. When this
 * thread comes to mine a chunk, it fingerprints the blocks the other has not reached yet itself
 * and waits at most for the blocks the other is on: neither thread idles while fingerprints are
 * still to be computed, whichever of the two runs faster at the time (a fixed share left one
 * waiting: the thread starts cold, and the machine's load varies).
 */
export class FingerprintThread {
  private readonly worker: Worker;
  /** Chunks sent and not yet taken, by sequence number: resolved when the thread finished the last block. */
  private readonly waiting = new Map<number, Waiter>();
  private failure: Error | null = null;
  private sent = 0;

  constructor(private readonly mask: MaskOptions) {
    this.worker = new Worker(new URL('./fingerprint-thread.js', import.meta.url), { workerData: mask });
    this.worker.on('message', (seq: number) => {
      this.waiting.get(seq)?.resolve();
      this.waiting.delete(seq);
    });
    const fail = (error: Error): void => {
      this.failure = error;
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the fingerprint thread exited (${code})`)));
  }

  /** Shares the lines of `text` (which ends with a newline) with the thread; the result gives them fingerprinted. */
  lines(text: string): TakeLines {
    const shared = shareLines(text);
    const seq = this.sent++;
    const finishedThere = new Promise<void>((resolve, reject) => this.waiting.set(seq, { resolve, reject }));
    // Awaited only when the thread finishes the last block; a failure meanwhile must not count as unhandled.
    finishedThere.catch(() => {});
    if (this.failure === null) this.worker.postMessage({ seq, text, buffer: shared.buffer, lineCount: shared.lineCount } satisfies ChunkMessage);
    return async () => {
      if (this.failure !== null) throw this.failure;
      const finishedHere = fingerprintClaimedBlocks(text, shared, this.mask);
      if (!finishedHere && !allBlocksDone(shared)) await finishedThere;
      this.waiting.delete(seq);
      return { ranges: shared.ranges, fingerprints: shared.fingerprints };
    };
  }

  async close(): Promise<void> {
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
  }
}
