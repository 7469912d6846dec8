import {
  BusFullError,
  type Bus,
  type BusConsumer,
  type BusMessage,
  type BusRecord,
  type ConsumerOptions,
  type PartitionOffsets,
  type TopicSpec,
} from '../../model/bus.js';
import { partitionForKey } from '../../util/murmur2.js';
import { PartitionLog } from './partition-log.js';
import { GroupConsumer } from './group-consumer.js';

export interface MemoryBusOptions {
  /**
   * Per topic, the consumer group whose commit makes a record safe: publish() resolves only once
   * that group has committed past the records (in all-in-one: the writer, after storing them).
   */
  durableGroups: Record<string, string>;
  /** Upper bound on bytes held across all topics; publishing past it fails with BusFullError. */
  maxBufferedBytes: number;
  /** A topic nobody consumes (the stories topic) keeps at most this many bytes, oldest dropped first. */
  unconsumedRetentionBytes?: number;
  /** Called once per consumer error, for logging. */
  onConsumerError?: (group: string, error: unknown) => void;
}

interface Topic {
  spec: TopicSpec;
  partitions: PartitionLog[];
}

/**
 * The in-process bus of all-in-one: Kafka's semantics (keyed records, partitions, consumer groups,
 * commit after processing, offsets for lag) in memory, bounded, with acknowledgements tied to the
 * durable consumer group instead of broker replication.
 */
export class MemoryBus implements Bus {
  private readonly topics = new Map<string, Topic>();
  private readonly consumers = new Set<GroupConsumer>();
  private readonly groupTopics = new Map<string, Set<string>>();
  private bufferedBytes = 0;
  private closed = false;

  constructor(private readonly options: MemoryBusOptions) {}

  async ensureTopics(specs: TopicSpec[]): Promise<void> {
    for (const spec of specs) {
      if (this.topics.has(spec.name)) continue; // an existing topic is never altered
      const partitions = Array.from({ length: spec.partitions }, (_, index) => new PartitionLog(spec.name, index));
      this.topics.set(spec.name, { spec, partitions });
    }
  }

  async publish(topicName: string, messages: BusMessage[]): Promise<void> {
    if (this.closed) throw new Error('bus closed');
    const topic = this.requireTopic(topicName);
    let bytes = 0;
    for (const message of messages) bytes += message.value.length + message.key.length;
    const durableGroup = this.options.durableGroups[topicName];
    const consumed = this.consumingGroups(topicName).length > 0;
    if (consumed && this.bufferedBytes + bytes > this.options.maxBufferedBytes && this.bufferedBytes > 0) {
      throw new BusFullError();
    }
    const waits: Promise<void>[] = [];
    const nowMs = Date.now();
    const touched = new Set<PartitionLog>();
    for (const message of messages) {
      const partition = topic.partitions[partitionForKey(message.key, topic.partitions.length)];
      const record = partition.append(message, nowMs);
      touched.add(partition);
      if (durableGroup !== undefined) waits.push(partition.waitForCommit(durableGroup, record.offset));
    }
    if (consumed) this.bufferedBytes += bytes;
    for (const partition of touched) {
      if (!consumed) partition.trimToBytes(this.options.unconsumedRetentionBytes ?? 64 * 1024 * 1024);
    }
    for (const consumer of this.consumers) consumer.wake();
    await Promise.all(waits);
  }

  consume(options: ConsumerOptions): BusConsumer {
    const logs: PartitionLog[] = [];
    for (const name of options.topics) logs.push(...this.requireTopic(name).partitions);
    const known = this.groupTopics.get(options.group) ?? new Set<string>();
    for (const name of options.topics) known.add(name);
    this.groupTopics.set(options.group, known);
    const consumer = new GroupConsumer(options, logs, {
      onCommitted: () => this.trim(),
      onError: (error) => this.options.onConsumerError?.(options.group, error),
    });
    this.consumers.add(consumer);
    consumer.wake();
    return {
      close: async () => {
        await consumer.close();
        this.consumers.delete(consumer);
      },
    };
  }

  async offsets(group: string, topicName: string): Promise<PartitionOffsets[]> {
    const topic = this.requireTopic(topicName);
    return topic.partitions.map((partition) => ({
      topic: topicName,
      partition: partition.index,
      committed: partition.committedOffset(group),
      end: partition.endOffset,
    }));
  }

  async groups(): Promise<{ group: string; topics: string[] }[]> {
    return [...this.groupTopics.entries()].map(([group, topics]) => ({ group, topics: [...topics] }));
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.consumers].map((consumer) => consumer.close()));
    this.consumers.clear();
  }

  /** Bytes currently held for consumers (for metrics and tests). */
  get heldBytes(): number {
    return this.bufferedBytes;
  }

  private consumingGroups(topicName: string): string[] {
    const groups: string[] = [];
    for (const [group, topics] of this.groupTopics) if (topics.has(topicName)) groups.push(group);
    return groups;
  }

  /** Drops records every consuming group has committed, releasing their bytes. */
  private trim(): void {
    for (const [name, topic] of this.topics) {
      const groups = this.consumingGroups(name);
      if (groups.length === 0) continue;
      for (const partition of topic.partitions) this.bufferedBytes -= partition.trimCommitted(groups);
    }
  }

  private requireTopic(name: string): Topic {
    const topic = this.topics.get(name);
    if (topic === undefined) throw new Error(`unknown topic ${name}`);
    return topic;
  }
}

export type { BusRecord };
