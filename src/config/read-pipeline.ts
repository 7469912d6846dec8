import { listenAddress, nonNegative, positive, positiveInt, topicName, within } from './checks.js';
import type { SettingReader } from './reader.js';
import type { AssemblerSettings, ThresholdSettings, WriterSettings } from './settings.js';

const METRICS_ADDR = '0.0.0.0:9100';

/** [writer]: batch limits of the inserter. */
export function readWriter(r: SettingReader): WriterSettings {
  return {
    max_rows: r.int('writer.max_rows', 10_000, positiveInt),
    max_age_ms: r.int('writer.max_age_ms', 1_000, positiveInt),
    metrics_addr: r.string('writer.metrics_addr', METRICS_ADDR, listenAddress),
  };
}

/** [assembler]: trace closing, buffer bounds, baseline and the stories topic. */
export function readAssembler(r: SettingReader): AssemblerSettings {
  return {
    gap_ms: r.int('assembler.gap_ms', 10_000, positiveInt),
    max_age_ms: r.int('assembler.max_age_ms', 60_000, positiveInt),
    max_spans: r.int('assembler.max_spans', 10_000, positiveInt),
    max_buffer_bytes: r.int('assembler.max_buffer_bytes', 536_870_912, positiveInt),
    recent_per_partition: r.int('assembler.recent_per_partition', 100_000, positiveInt),
    baseline_window_minutes: r.int('assembler.baseline_window_minutes', 60, positiveInt),
    baseline_refresh_secs: r.int('assembler.baseline_refresh_secs', 60, positiveInt),
    stories_topic: r.string('assembler.stories_topic', 'svc.stories', topicName),
    stories_partitions: r.int('assembler.stories_partitions', 3, positiveInt),
    metrics_addr: r.string('assembler.metrics_addr', METRICS_ADDR, listenAddress),
  };
}

/** [thresholds]: when a trace is slow and what differs from its baseline. */
export function readThresholds(r: SettingReader): ThresholdSettings {
  return {
    min_baseline_traces: r.int('thresholds.min_baseline_traces', 50, positiveInt),
    slow_trace_factor: r.float('thresholds.slow_trace_factor', 1.5, positive),
    slow_trace_margin_ms: r.float('thresholds.slow_trace_margin_ms', 100, nonNegative),
    new_op_presence: r.float('thresholds.new_op_presence', 0.01, within(0, 1)),
    missing_op_presence: r.float('thresholds.missing_op_presence', 0.95, within(0, 1)),
    slower_op_factor: r.float('thresholds.slower_op_factor', 2.0, positive),
    slower_op_margin_ms: r.float('thresholds.slower_op_margin_ms', 50, nonNegative),
  };
}
