import { listenAddress, positiveInt, topicName, within } from './checks.js';
import { fail, type Check, type SettingReader } from './reader.js';
import type { KafkaSettings } from './settings.js';

/** Kafka refuses records above its 1 MiB default message.max.bytes, minus room for the record framing. */
const MAX_RECORD_BYTES_LIMIT = 1_048_575;

const brokerList: Check<string> = (value, path) => {
  if (value.trim() === '') return null; // whether it is required depends on the component
  const bad = value.split(',').some((entry) => listenAddress(entry.trim(), path) !== null || entry.trim().endsWith(':0'));
  return bad ? `${path} must be comma-separated host:port entries` : null;
};

const retention: Check<number> = (value, path) => (value === -1 || value > 0 ? null : `${path} must be -1 (unlimited) or positive`);

/** [kafka]; brokers is '' when unset (required or not is the loader's call, per component). */
export function readKafka(r: SettingReader): KafkaSettings {
  const kafka: KafkaSettings = {
    brokers: r.string('kafka.brokers', '', brokerList).trim(),
    topic: r.string('kafka.topic', 'svc.signals', topicName),
    logs_topic: r.string('kafka.logs_topic', 'svc.logs', topicName),
    partitions: r.int('kafka.partitions', 12, positiveInt),
    max_record_bytes: r.int('kafka.max_record_bytes', 900_000, within(1, MAX_RECORD_BYTES_LIMIT)),
    retention_ms: r.int('kafka.retention_ms', 86_400_000, retention),
  };
  // Logs would be mined twice and spans fed to the miner if both names pointed at one topic.
  if (r.strict) fail(kafka.logs_topic === kafka.topic ? 'kafka.logs_topic must differ from kafka.topic' : null);
  return kafka;
}
