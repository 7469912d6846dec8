import { join } from 'node:path';
import type { Settings } from '../config/settings.js';
import { createKafkaBus } from '../bus/kafka/kafka-bus.js';
import { DiskBus } from '../bus/disk/disk-bus.js';
import type { Bus } from '../model/bus.js';
import type { Registry } from 'prom-client';
import { registerDiskBusMetrics } from '../bus/disk/metrics.js';
import type { Logger } from '../util/log.js';
import { topicSpecs } from './topics.js';

/** The embedded bus's log lives beside the embedded ClickHouse data, in the data directory. */
export function embeddedBusDir(settings: Settings): string {
  return join(settings.embedded.data_dir, 'bus');
}

/**
 * Kafka when kafka.brokers is set (always in the split deployment; publish resolves on the broker's
 * acks=all acknowledgement), else the durable embedded bus of all-in-one (publish resolves once the
 * records are synced to its log under embedded.data_dir).
 */
export async function createBus(settings: Settings, logger: Logger, clientId: string, registry?: Registry): Promise<Bus> {
  if (settings.kafka.brokers !== '') {
    const onlyTopics = topicSpecs(settings).map((spec) => spec.name);
    return createKafkaBus({ brokers: settings.kafka.brokers, clientId, maxRecordBytes: settings.kafka.max_record_bytes, onlyTopics }, { logger });
  }
  const dir = embeddedBusDir(settings);
  const bus = await DiskBus.open({
    dir,
    maxBytes: settings.embedded.bus_max_bytes,
    onConsumerError: (group, error) => logger.error({ err: error, group }, 'consumer batch failed; redelivering from the last commit'),
  });
  if (registry !== undefined) registerDiskBusMetrics(bus, settings.embedded.bus_max_bytes, registry);
  const { recovery } = bus;
  if (recovery.truncatedBytes > 0) {
    logger.warn(
      { dir, cutBytes: recovery.truncatedBytes, reasons: recovery.reasons },
      'embedded bus: cut a torn or corrupt tail left by a crash (those records were never acknowledged)',
    );
  }
  logger.info(
    { dir, segments: recovery.segments, records: recovery.records, diskBytes: bus.diskBytes, maxBytes: settings.embedded.bus_max_bytes },
    'embedded bus open',
  );
  return bus;
}
