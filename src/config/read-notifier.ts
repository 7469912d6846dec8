import { ConfigError } from './config-error.js';
import { httpUrl, listenAddress, nonNegative, positiveInt, topicName, within } from './checks.js';
import { fail, itemString, type SettingReader } from './reader.js';
import type { AlertKind, NotifierSettings, NotifierTarget } from './settings.js';

const ALERT_KINDS: readonly AlertKind[] = ['new', 'spike', 'silence'];
const TARGET_KINDS: readonly NotifierTarget['kind'][] = ['webhook', 'chat'];

/** [notifier]; targets and kinds come from the file only. Target URLs never appear in a message. */
export function readNotifier(r: SettingReader): NotifierSettings {
  const names = new Set<string>();
  const targets = r.tableList('notifier.targets', [], { hideValue: true }, (item, itemPath) => {
    const target = readTarget(item, itemPath);
    // The name labels the target's metrics and breaker, so two targets must not share one.
    if (names.has(target.name)) throw new ConfigError(`${itemPath}.name ${JSON.stringify(target.name)} is used by another target`);
    names.add(target.name);
    return target;
  });
  return {
    targets,
    public_url: r.string('notifier.public_url', 'http://localhost:8090', httpUrl),
    // The item check admits only AlertKind words, which is what makes the cast below sound.
    kinds: r.stringList('notifier.kinds', ALERT_KINDS, (value, path) =>
      (ALERT_KINDS as readonly string[]).includes(value) ? null : `${path} must be new, spike or silence`,
    ) as AlertKind[],
    max_attempts: r.int('notifier.max_attempts', 8, positiveInt),
    timeout_secs: r.int('notifier.timeout_secs', 10, within(1, 15)),
    max_age_secs: r.int('notifier.max_age_secs', 3_600, positiveInt),
    breaker_cooldown_secs: r.int('notifier.breaker_cooldown_secs', 300, nonNegative),
    alerts_topic: r.string('notifier.alerts_topic', 'svc.alerts', topicName),
    metrics_addr: r.string('notifier.metrics_addr', '0.0.0.0:9100', listenAddress),
  };
}

function readTarget(item: Record<string, unknown>, itemPath: string): NotifierTarget {
  const name = itemString(item, 'name', itemPath, true);
  const kind = itemString(item, 'kind', itemPath, true);
  if (!(TARGET_KINDS as readonly string[]).includes(kind)) throw new ConfigError(`${itemPath}.kind must be webhook or chat`);
  const url = itemString(item, 'url', itemPath, true);
  fail(httpUrl(url, `${itemPath}.url`));
  return { name, kind: kind as NotifierTarget['kind'], url };
}
