import { Consumer, MessagesStreamFallbackModes, MessagesStreamModes, type Message, type MessagesStream } from '@platformatic/kafka';
import type { BusRecord, ConsumerOptions } from '../../model/bus.js';
import { backoffDelayMs, type Backoff } from '../../util/retry.js';

/** A delivered batch; `last` carries the commit of everything up to and including it. */
interface InFlight {
  last: Message;
  done: boolean;
}

interface PartitionState {
  waiting: Message[];
  inFlight: InFlight[];
  /** The offset after the last record this session took from the partition. */
  nextOffset: bigint;
}

export interface KafkaConsumerClient {
  brokers: string[];
  clientId: string;
}

/** Where an error came from: a handler (its batch is redelivered), the group session, or a commit. */
export type ConsumerErrorSource = 'handler' | 'session' | 'commit';

export interface KafkaGroupConsumerHooks {
  onError: (error: unknown, source: ConsumerErrorSource) => void;
}

/** After a handler failure, as on the embedded bus. */
const RETRY_DELAY_MS = 500;
/** A session that could not start (broker unreachable) is retried after 1 s, 2 s, 4 s, ... 10 s. */
const SESSION_BACKOFF: Backoff = { firstMs: 2 * RETRY_DELAY_MS, maxMs: 10_000 };
/** Fetched records, and their bytes, held per consumer before the fetch loop pauses (bounded buffer). */
const MAX_WAITING_RECORDS = 5_000;
const MAX_WAITING_BYTES = 32 * 1024 * 1024;
/** Long-poll bound of a fetch: close() waits at most this long for the one under way. */
const FETCH_MAX_WAIT_MS = 500;
const SESSION_TIMEOUT_MS = 10_000;
const HEARTBEAT_INTERVAL_MS = 1_000;
/**
 * How long close() lets the session end by itself (batches finish, commits land, the member leaves)
 * before it force-closes the client. Seen on a machine at load 15-30: a close during a group join
 * or leave waited on the broker for many minutes. Forced, the member's uncommitted records are
 * delivered again to the group (at-least-once), and the process can still stop in time.
 */
const CLOSE_GRACE_MS = 10_000;

/** Closes a client and any stream it still has open (the promise overload of close(force) is shadowed by the callback one). */
export function forceClose(client: { close(force: boolean, callback: (error?: Error | null) => void): void }): Promise<void> {
  return new Promise((resolve, reject) => client.close(true, (error) => (error ? reject(error) : resolve())));
}

function messageSize(message: Message): number {
  return (message.value?.length ?? 0) + (message.key?.length ?? 0);
}

function toBusRecord(message: Message): BusRecord {
  const headers: Record<string, string> = {};
  for (const [name, value] of message.headers) headers[name.toString()] = value.toString();
  return {
    topic: message.topic,
    partition: message.partition,
    offset: message.offset,
    timestampMs: Number(message.timestamp),
    key: message.key === undefined || message.key === null ? '' : message.key.toString(),
    value: message.value ?? Buffer.alloc(0),
    headers,
  };
}

/**
 * A Kafka consumer-group member with the embedded bus's delivery rules: several batches may be in
 * flight, offsets commit strictly in order per partition and only after the handler resolved; a
 * failed batch ends the session, and a new one resumes every partition from its last commit after
 * a short delay (at-least-once: records delivered but not committed come again).
 */
export class KafkaGroupConsumer {
  private readonly maxInFlight: number;
  private readonly maxBatchRecords: number;
  private readonly partitions = new Map<string, PartitionState>();
  private readonly running = new Set<Promise<void>>();
  private inFlightCount = 0;
  private waitingCount = 0;
  private waitingBytes = 0;
  private stream: MessagesStream<Buffer, Buffer, Buffer, Buffer> | undefined;
  private commits: Promise<void> = Promise.resolve();
  private sessionEnded: (() => void) | undefined;
  private failed = false;
  private closed = false;
  private readonly loop: Promise<void>;
  private retryTimer: NodeJS.Timeout | undefined;
  private wakeRetry: (() => void) | undefined;
  /** The current session's client, for a forced close. */
  private sessionClient: Consumer<Buffer, Buffer, Buffer, Buffer> | undefined;

  constructor(
    private readonly options: ConsumerOptions,
    private readonly client: KafkaConsumerClient,
    private readonly hooks: KafkaGroupConsumerHooks,
  ) {
    this.maxInFlight = options.maxInFlightBatches ?? 64;
    this.maxBatchRecords = options.maxBatchRecords ?? 500;
    this.loop = this.run();
  }

  /** Stops fetching, waits for delivered batches and their commits, and leaves the group. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    this.wakeRetry?.();
    this.sessionEnded?.();
    const grace = setTimeout(() => {
      const client = this.sessionClient;
      if (client !== undefined) forceClose(client).catch((error: unknown) => this.hooks.onError(error, 'session'));
    }, CLOSE_GRACE_MS);
    try {
      await this.loop;
    } finally {
      clearTimeout(grace);
    }
  }

  private async run(): Promise<void> {
    let sessionFailures = 0;
    while (!this.closed) {
      let delayMs = RETRY_DELAY_MS;
      try {
        await this.session();
        sessionFailures = 0;
      } catch (error) {
        this.hooks.onError(error, 'session');
        sessionFailures += 1;
        delayMs = backoffDelayMs(sessionFailures, SESSION_BACKOFF);
      }
      if (this.closed) break;
      await new Promise<void>((resolve) => {
        this.wakeRetry = resolve;
        this.retryTimer = setTimeout(resolve, delayMs);
      });
    }
  }

  /** One group membership: consume until a handler fails, the stream breaks, or close(). */
  private async session(): Promise<void> {
    this.failed = false;
    const consumer = new Consumer({
      clientId: this.client.clientId,
      bootstrapBrokers: this.client.brokers,
      groupId: this.options.group,
      sessionTimeout: SESSION_TIMEOUT_MS,
      heartbeatInterval: HEARTBEAT_INTERVAL_MS,
      maxWaitTime: FETCH_MAX_WAIT_MS,
      retries: 3,
      retryDelay: 200,
    });
    this.sessionClient = consumer;
    // Local: a late event of this session's client or stream must not end the next session.
    let endSession!: () => void;
    const ended = new Promise<void>((resolve) => (endSession = resolve));
    this.sessionEnded = endSession;
    let ending = false;
    const failSession = (error: unknown) => {
      if (!ending) this.hooks.onError(error, 'session');
      endSession();
    };
    // The client reports a background rejoin that failed (after a rebalance, under load or while a
    // broker is away) as an 'error' event: unheard it would throw and end the process. The member
    // is out of the group then, so the session ends and a new one joins from the last commits.
    consumer.on('error', failSession);
    try {
      if (this.closed) return;
      const stream = await consumer.consume({
        topics: this.options.topics,
        autocommit: false,
        mode: MessagesStreamModes.COMMITTED,
        fallbackMode: MessagesStreamFallbackModes.EARLIEST,
      });
      this.stream = stream;
      stream.on('data', (message: Message) => this.receive(message));
      stream.on('error', failSession);
      stream.once('close', endSession);
      if (this.closed) endSession();
      await ended;
      ending = true;
      stream.pause();
      // Batches already handed out finish, and their commits still apply.
      while (this.running.size > 0) await Promise.allSettled([...this.running]);
      await this.commits;
      if (!stream.destroyed) await stream.close().catch((error: unknown) => this.hooks.onError(error, 'session'));
    } finally {
      ending = true;
      this.stream = undefined;
      this.sessionEnded = undefined;
      this.partitions.clear();
      this.waitingCount = 0;
      this.waitingBytes = 0;
      await forceClose(consumer).catch((error: unknown) => this.hooks.onError(error, 'session'));
      if (this.sessionClient === consumer) this.sessionClient = undefined;
    }
  }

  private receive(message: Message): void {
    if (this.failed || this.closed) return;
    const key = `${message.topic}:${message.partition}`;
    let state = this.partitions.get(key);
    if (state === undefined) {
      state = { waiting: [], inFlight: [], nextOffset: -1n };
      this.partitions.set(key, state);
    }
    // Every rebalance makes the client fetch each assigned partition again from its last commit,
    // which lags what this session already took (handlers still running, commits still on their
    // way or refused during the rebalance). Those records are waiting, in flight or done here, and
    // commit in order with the rest; handing them out again would only duplicate them downstream.
    // A new session starts from the commits, so a failed batch is still delivered again.
    if (message.offset < state.nextOffset) return;
    state.nextOffset = message.offset + 1n;
    state.waiting.push(message);
    this.waitingCount += 1;
    this.waitingBytes += messageSize(message);
    if (this.waitingCount >= MAX_WAITING_RECORDS || this.waitingBytes >= MAX_WAITING_BYTES) this.stream?.pause();
    this.deliver();
  }

  private deliver(): void {
    for (const state of this.partitions.values()) {
      while (!this.failed && !this.closed && state.waiting.length > 0 && this.inFlightCount < this.maxInFlight) {
        const messages = state.waiting.splice(0, this.maxBatchRecords);
        this.waitingCount -= messages.length;
        for (const message of messages) this.waitingBytes -= messageSize(message);
        const entry: InFlight = { last: messages[messages.length - 1], done: false };
        state.inFlight.push(entry);
        this.inFlightCount += 1;
        const run = this.options
          .handler(messages.map(toBusRecord))
          .then(
            () => this.onSuccess(state, entry),
            (error: unknown) => this.onFailure(error),
          )
          .finally(() => {
            this.inFlightCount -= 1;
            this.running.delete(run);
            this.deliver();
          });
        this.running.add(run);
      }
    }
    const drained = this.waitingCount < MAX_WAITING_RECORDS / 2 && this.waitingBytes < MAX_WAITING_BYTES / 2;
    if (drained && !this.failed && !this.closed && this.stream?.isPaused()) this.stream.resume();
  }

  private onSuccess(state: PartitionState, entry: InFlight): void {
    entry.done = true;
    let committable: InFlight | undefined;
    while (state.inFlight.length > 0 && state.inFlight[0].done) committable = state.inFlight.shift();
    if (committable === undefined) return;
    const message = committable.last;
    // Chained, so that a partition's commits reach the broker in order.
    this.commits = this.commits.then(async () => {
      try {
        await message.commit();
      } catch (error) {
        // A commit lost to a rebalance only means redelivery to the partition's next owner.
        this.hooks.onError(error, 'commit');
      }
    });
  }

  private onFailure(error: unknown): void {
    if (!this.failed) this.hooks.onError(error, 'handler');
    // The failed batch stays in inFlight as not done, so nothing after it commits.
    this.failed = true;
    this.sessionEnded?.();
  }
}
