import type { Admin } from '@platformatic/kafka';
import type { TopicSpec } from '../../model/bus.js';
import type { Logger } from '../../util/log.js';

/**
 * Room above kafka.max_record_bytes in a created topic's max.message.bytes: the broker limits the
 * record batch, which adds its header (61 bytes) and each record's framing to what the record budget
 * counts (key, value, headers); sends are bounded to the budget with framing counted.
 */
export const RECORD_BATCH_OVERHEAD_BYTES = 1024;
const LEADERS_TIMEOUT_MS = 15_000;

/** The configs a created topic gets. */
export function topicConfigs(spec: TopicSpec): { name: string; value: string }[] {
  return [
    { name: 'retention.ms', value: String(spec.retentionMs) },
    { name: 'max.message.bytes', value: String(spec.maxMessageBytes + RECORD_BATCH_OVERHEAD_BYTES) },
  ];
}

/** Creates the topics that are absent (never alters one that exists) and waits until they have leaders. */
export async function ensureTopics(admin: Admin, specs: TopicSpec[], logger: Logger): Promise<void> {
  const existing = new Set(await admin.listTopics());
  const created: string[] = [];
  for (const spec of specs) {
    if (existing.has(spec.name)) continue;
    try {
      // replicas -1: the broker's default.replication.factor.
      await admin.createTopics({ topics: [spec.name], partitions: spec.partitions, replicas: -1, configs: topicConfigs(spec) });
      created.push(spec.name);
      logger.info({ topic: spec.name, partitions: spec.partitions, retention_ms: spec.retentionMs }, 'created topic');
    } catch (error) {
      // Another component may have created it a moment ago; only a still-missing topic is an error.
      if (!(await admin.listTopics()).includes(spec.name)) throw error;
    }
  }
  if (created.length > 0) await waitForLeaders(admin, created);
}

async function waitForLeaders(admin: Admin, topics: string[]): Promise<void> {
  const deadlineMs = Date.now() + LEADERS_TIMEOUT_MS;
  for (;;) {
    const metadata = await admin.metadata({ topics, forceUpdate: true }).catch(() => undefined);
    const ready =
      metadata !== undefined &&
      topics.every((name) => {
        const topic = metadata.topics.get(name);
        return topic !== undefined && topic.partitions.length === topic.partitionsCount && topic.partitions.every((partition) => partition.leader >= 0);
      });
    if (ready) return;
    if (Date.now() > deadlineMs) throw new Error(`topics ${topics.join(', ')} have no leader after ${LEADERS_TIMEOUT_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
