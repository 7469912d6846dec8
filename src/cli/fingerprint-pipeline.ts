import { Worker } from 'node:worker_threads';
import type { MaskOptions } from '../mining/masking.js';
import type { ChunkLines } from './chunk-lines.js';

/**
 * The main side of the fingerprint thread: chunks go in, their lines and fingerprints come back
 * in the order they were sent (the thread answers one message at a time).
 */
export class FingerprintThread {
  private readonly worker: Worker;
  private readonly waiting: { resolve: (lines: ChunkLines) => void; reject: (error: Error) => void }[] = [];
  private failure: Error | null = null;

  constructor(mask: MaskOptions) {
    this.worker = new Worker(new URL('./fingerprint-thread.js', import.meta.url), { workerData: mask });
    this.worker.on('message', (lines: ChunkLines) => this.waiting.shift()?.resolve(lines));
    const fail = (error: Error): void => {
      this.failure = error;
      for (const waiter of this.waiting.splice(0)) waiter.reject(error);
    };
    this.worker.on('error', fail);
    this.worker.on('exit', (code) => fail(new Error(`the fingerprint thread exited (${code})`)));
  }

  /** The lines of `text` (which ends with a newline) and their fingerprints. */
  lines(text: string): Promise<ChunkLines> {
    if (this.failure !== null) return Promise.reject(this.failure);
    return new Promise<ChunkLines>((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.worker.postMessage(text);
    });
  }

  async close(): Promise<void> {
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
  }
}
