/**
 * Requests to a worker thread answered by sequence number: the one request/reply loop of the
 * parallel miner, the writer's encoder thread and the `svc templates` fingerprint thread. A thread
 * that errors or exits fails every request it holds and every later one (its owner starts a new
 * one if it wants); nothing waits forever on a dead thread.
 */
import { Worker } from 'node:worker_threads';

/** A reply names the request it answers. */
export interface Sequenced {
  seq: number;
}

/** A request without its sequence number (distributes over a union's members). */
export type Unsequenced<R> = R extends unknown ? Omit<R, 'seq'> : never;

/**
 * A worker thread's young generation, in MiB. V8 lets each isolate's new space grow to 32 MiB
 * (two 16 MiB halves), and a busy thread (the writer's encoder, the bus's file thread) reaches
 * that and keeps it resident: tens of MiB per thread that only hold short-lived garbage. 12 MiB
 * (two 4 MiB halves plus large objects) scavenges more often, each scavenge no dearer (its cost is
 * what survives, and these threads keep little).
 */
export const WORKER_YOUNG_GENERATION_MB = 12;

export interface WorkerRpcOptions {
  /** Names the thread in the error of an unexpected exit. */
  name: string;
  workerData?: unknown;
  /** A message without a sequence number (a thread's "ready", say). */
  onSignal?: (message: unknown) => void;
  /** Called once when the thread errors or exits. */
  onFailure?: (error: Error) => void;
  /** The thread keeps the process alive only while a request waits on it. */
  idleUnref?: boolean;
}

export class WorkerRpc<Request extends Sequenced, Reply extends Sequenced> {
  private readonly worker: Worker;
  private readonly pending = new Map<number, { resolve: (reply: Reply) => void; reject: (error: Error) => void }>();
  private sent = 0;
  private failure: Error | null = null;

  constructor(
    url: URL,
    private readonly options: WorkerRpcOptions,
  ) {
    this.worker = new Worker(url, { workerData: options.workerData, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } });
    this.worker.on('message', (message: unknown) => {
      if (typeof message !== 'object' || message === null || typeof (message as Partial<Sequenced>).seq !== 'number') {
        options.onSignal?.(message);
        return;
      }
      const reply = message as Reply;
      const waiter = this.pending.get(reply.seq);
      this.pending.delete(reply.seq);
      if (this.pending.size === 0 && options.idleUnref === true) this.worker.unref();
      waiter?.resolve(reply);
    });
    this.worker.on('error', (error) => this.fail(error));
    this.worker.on('exit', (code) => this.fail(new Error(`${options.name} exited with code ${code}`)));
    if (options.idleUnref === true) this.worker.unref();
  }

  /** The thread's failure, or null while it runs. */
  get failed(): Error | null {
    return this.failure;
  }

  /** Sends a request (its `transfer` buffers move to the thread) and resolves with the reply to it. */
  request(message: Unsequenced<Request>, transfer: ArrayBuffer[] = []): Promise<Reply> {
    if (this.failure !== null) return Promise.reject(this.failure);
    const seq = ++this.sent;
    return new Promise<Reply>((resolve, reject) => {
      this.pending.set(seq, { resolve, reject });
      if (this.options.idleUnref === true) this.worker.ref();
      this.worker.postMessage({ ...message, seq }, transfer);
    });
  }

  /** Stops the thread; requests still waiting are failed. */
  async close(): Promise<void> {
    this.worker.removeAllListeners('exit');
    await this.worker.terminate();
    this.fail(new Error(`${this.options.name} was closed`));
  }

  private fail(error: Error): void {
    if (this.failure !== null) return;
    this.failure = error;
    for (const waiter of this.pending.values()) waiter.reject(error);
    this.pending.clear();
    this.options.onFailure?.(error);
  }
}
