import { listenAddress, nonNegative, positive, positiveInt, topicName, within } from './checks.js';
import { fail, type SettingReader } from './reader.js';
import type { BaselineMode, Fingerprinter, LogminerSettings } from './settings.js';

const FINGERPRINTERS: readonly Fingerprinter[] = ['off', 'scalar', 'parallel', 'gpu'];
const BASELINE_MODES: readonly BaselineMode[] = ['flat', 'seasonal'];

/**
 * [logminer]. `runsMiner` is true for the components that mine (logminer, all-in-one): only they
 * fail on `gpu`, which this build (no gpu feature) cannot run.
 */
export function readLogminer(r: SettingReader, runsMiner: boolean): LogminerSettings {
  const fingerprinter = r.oneOf('logminer.fingerprinter', FINGERPRINTERS, 'scalar', 'logminer.fingerprinter must be off, scalar, parallel or gpu');
  if (runsMiner) fail(fingerprinter === 'gpu' ? 'logminer.fingerprinter gpu needs a build with the gpu feature' : null);
  return {
    sim_threshold: r.float('logminer.sim_threshold', 0.5, within(0, 1)),
    max_clusters_per_service: r.int('logminer.max_clusters_per_service', 5_000, positiveInt),
    keep_http_status: r.bool('logminer.keep_http_status', true),
    fingerprinter,
    max_batch: r.int('logminer.max_batch', 5_000, positiveInt),
    flush_ms: r.int('logminer.flush_ms', 1_000, positiveInt),
    detect_secs: r.int('logminer.detect_secs', 60, positiveInt),
    spike_window_min: r.int('logminer.spike_window_min', 5, positiveInt),
    baseline_window_min: r.int('logminer.baseline_window_min', 60, positiveInt),
    spike_factor: r.float('logminer.spike_factor', 5.0, positive),
    spike_min_count: r.int('logminer.spike_min_count', 10, positiveInt),
    baseline_mode: r.oneOf('logminer.baseline_mode', BASELINE_MODES, 'flat', 'logminer.baseline_mode must be flat or seasonal'),
    // 0 is meaningful here: no quiet period after a masking change.
    new_template_warmup_min: r.int('logminer.new_template_warmup_min', 15, nonNegative),
    alert_active_min: r.int('logminer.alert_active_min', 10, positiveInt),
    ownership_window_min: r.int('logminer.ownership_window_min', 60, positiveInt),
    alerts_topic: r.string('logminer.alerts_topic', 'svc.alerts', topicName),
    metrics_addr: r.string('logminer.metrics_addr', '0.0.0.0:9100', listenAddress),
  };
}
