import type { Settings } from '../config/settings.js';
import type { Bus, TopicSpec } from '../model/bus.js';
import { namingSetting } from '../config/start-failure.js';

/** Topics the service creates when absent, with the contract's partitions, retention and message size. */
export function topicSpecs(settings: Settings): TopicSpec[] {
  const { kafka } = settings;
  const maxMessageBytes = kafka.max_record_bytes;
  return [
    { name: kafka.topic, partitions: kafka.partitions, retentionMs: kafka.retention_ms, maxMessageBytes },
    { name: kafka.logs_topic, partitions: kafka.partitions, retentionMs: kafka.retention_ms, maxMessageBytes },
    { name: settings.assembler.stories_topic, partitions: settings.assembler.stories_partitions, retentionMs: kafka.retention_ms, maxMessageBytes },
    { name: settings.logminer.alerts_topic, partitions: 3, retentionMs: kafka.retention_ms, maxMessageBytes },
    // The notifier may be pointed at another alerts topic; it must exist for it to consume.
    ...(settings.notifier.alerts_topic !== settings.logminer.alerts_topic
      ? [{ name: settings.notifier.alerts_topic, partitions: 3, retentionMs: kafka.retention_ms, maxMessageBytes }]
      : []),
  ];
}

/** Creates the absent topics at start-up; with Kafka, a broker that cannot be used stops the process with one line naming kafka.brokers. */
export async function ensureTopicsAtStart(bus: Bus, settings: Settings): Promise<void> {
  if (settings.kafka.brokers === '') return bus.ensureTopics(topicSpecs(settings));
  await namingSetting(`kafka.brokers ${settings.kafka.brokers}`, 'cannot create or check the topics', () => bus.ensureTopics(topicSpecs(settings)));
}
