import type { Settings } from '../config/settings.js';
import { createKafkaBus } from '../bus/kafka/kafka-bus.js';
import { MemoryBus } from '../bus/memory/memory-bus.js';
import type { Bus } from '../model/bus.js';
import type { Logger } from '../util/log.js';
import { WRITER_GROUP } from '../writer/writer.js';
import { topicSpecs } from './topics.js';

/** How much the in-process bus may hold for consumers before ingest answers "retry later". */
const MEMORY_BUS_MAX_BYTES = 256 * 1024 * 1024;

/**
 * Kafka when kafka.brokers is set (always in the split deployment; publish resolves on the broker's
 * acks=all acknowledgement), else the in-process bus of all-in-one (publish resolves once the
 * writer stored the records).
 */
export function createBus(settings: Settings, logger: Logger, clientId: string): Bus {
  if (settings.kafka.brokers !== '') {
    const onlyTopics = topicSpecs(settings).map((spec) => spec.name);
    return createKafkaBus({ brokers: settings.kafka.brokers, clientId, maxRecordBytes: settings.kafka.max_record_bytes, onlyTopics }, { logger });
  }
  return new MemoryBus({
    durableGroups: { [settings.kafka.topic]: WRITER_GROUP },
    maxBufferedBytes: MEMORY_BUS_MAX_BYTES,
    onConsumerError: (group, error) => logger.error({ err: error, group }, 'consumer batch failed; redelivering from the last commit'),
  });
}
