/**
 * The message bus, with Kafka's semantics, so that the embedded bus of all-in-one (bus/disk) and
 * Apache Kafka in the split deployment (bus/kafka) are interchangeable behind it. Both are held to
 * one conformance suite (bus/bus-conformance.test-support.ts).
 */

export interface BusMessage {
  /** Partition key: trace id, or service for items without one. */
  key: string;
  value: Buffer;
  headers?: Record<string, string>;
}

export interface BusRecord extends BusMessage {
  topic: string;
  partition: number;
  offset: bigint;
  timestampMs: number;
}

export interface TopicSpec {
  name: string;
  partitions: number;
  /** -1 for unlimited. */
  retentionMs: number;
  maxMessageBytes: number;
}

/** A batch handed to a consumer; the bus commits its offsets once the returned promise resolves. */
export type BatchHandler = (records: BusRecord[]) => Promise<void>;

export interface ConsumerOptions {
  group: string;
  topics: string[];
  handler: BatchHandler;
  /** How many delivered batches may be unresolved at once; offsets commit in order. */
  maxInFlightBatches?: number;
  /** Upper bound of records per delivered batch. */
  maxBatchRecords?: number;
}

export interface BusConsumer {
  close(): Promise<void>;
}

export interface PartitionOffsets {
  topic: string;
  partition: number;
  /** Next offset to be committed by the group (0 when nothing committed). */
  committed: bigint;
  /** Offset the next produced record will get. */
  end: bigint;
}

export interface Bus {
  /** Creates the topic when absent; an existing topic is never altered. */
  ensureTopics(topics: TopicSpec[]): Promise<void>;
  /**
   * Publishes the messages; resolves once they are durable, whatever the consumers are doing:
   * acknowledged by the broker (acks=all), or written and synced to the embedded bus's log. Each
   * gets the next offset of the partition its key hashes to (Kafka's default partitioner). Rejects
   * with BusFullError under back-pressure (the bus holds as many bytes as it may), or another error
   * when the records could not be made durable (broker unreachable, disk failing); either is worth
   * retrying later.
   */
  publish(topic: string, messages: BusMessage[]): Promise<void>;
  consume(options: ConsumerOptions): BusConsumer;
  /** Committed and end offsets of a group on a topic, per partition, for lag. */
  offsets(group: string, topic: string): Promise<PartitionOffsets[]>;
  /** Groups known to the bus with the topics they consume. */
  groups(): Promise<{ group: string; topics: string[] }[]>;
  close(): Promise<void>;
}

/** Back-pressure: the bus holds as much as it may; the caller should ask its client to retry. */
export class BusFullError extends Error {
  constructor(message = 'bus buffer full') {
    super(message);
    this.name = 'BusFullError';
  }
}

export const SIGNAL_HEADER = 'svc-signal';
/** Set by ingest: how many spans or logs the record holds. */
export const ITEMS_HEADER = 'svc-items';
/** Set by ingest: `trace` when the key is the items' trace id, `service` when they have none. */
export const KEY_HEADER = 'svc-key';
export type SignalKind = 'traces' | 'logs';
