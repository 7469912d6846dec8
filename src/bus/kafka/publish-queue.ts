import { BusFullError } from '../../model/bus.js';

/** One message waiting for its send, with its share of the caller's promise. */
interface Queued<M> {
  message: M;
  bytes: number;
  publish: PendingPublish;
}

interface PendingPublish {
  remaining: number;
  failed: boolean;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface PublishQueueOptions<M> {
  /** Sends one batch; resolves once the broker acknowledged every message of it. */
  send: (messages: M[]) => Promise<void>;
  /** Bound on bytes waiting to be sent; past it publish fails with BusFullError. */
  maxQueuedBytes: number;
  /** Bound on one send's bytes (the broker's record-batch limit); a single larger message goes alone. */
  maxSendBytes: number;
}

/**
 * Serialises sends to the broker and coalesces concurrent publishes into them. One send at a time
 * is what the idempotent producer needs (its sequence numbers advance on each acknowledgement, so
 * concurrent sends to one partition are refused as out of order), and it keeps every key's records
 * in publish order; coalescing keeps the throughput that concurrency would have given.
 */
export class PublishQueue<M> {
  private readonly queue: Queued<M>[] = [];
  private queuedBytes = 0;
  private sending: Promise<void> | undefined;
  private closed = false;

  constructor(private readonly options: PublishQueueOptions<M>) {}

  /** Resolves once every message was acknowledged; rejects with the first failed send's error. */
  enqueue(messages: { message: M; bytes: number }[]): Promise<void> {
    if (this.closed) return Promise.reject(new Error('bus closed'));
    if (messages.length === 0) return Promise.resolve();
    let bytes = 0;
    for (const entry of messages) bytes += entry.bytes;
    if (this.queuedBytes > 0 && this.queuedBytes + bytes > this.options.maxQueuedBytes) return Promise.reject(new BusFullError());
    return new Promise<void>((resolve, reject) => {
      const publish: PendingPublish = { remaining: messages.length, failed: false, resolve, reject };
      for (const entry of messages) this.queue.push({ ...entry, publish });
      this.queuedBytes += bytes;
      this.pump();
    });
  }

  /** Refuses new publishes and waits for the queued ones to be sent. */
  async close(): Promise<void> {
    this.closed = true;
    while (this.sending !== undefined) await this.sending;
  }

  private pump(): void {
    if (this.sending !== undefined || this.queue.length === 0) return;
    const batch = this.takeBatch();
    this.sending = this.options
      .send(batch.map((entry) => entry.message))
      .then(
        () => {
          for (const entry of batch) {
            if (--entry.publish.remaining === 0 && !entry.publish.failed) entry.publish.resolve();
          }
        },
        (error: unknown) => {
          for (const entry of batch) {
            if (entry.publish.failed) continue;
            entry.publish.failed = true;
            entry.publish.reject(error);
          }
        },
      )
      .finally(() => {
        this.sending = undefined;
        this.pump();
      });
  }

  private takeBatch(): Queued<M>[] {
    let bytes = 0;
    let count = 0;
    while (count < this.queue.length) {
      const next = this.queue[count].bytes;
      if (count > 0 && bytes + next > this.options.maxSendBytes) break;
      bytes += next;
      count += 1;
    }
    this.queuedBytes -= bytes;
    return this.queue.splice(0, count);
  }
}
