import { httpUrl, listenAddress, nonEmpty, nonNegative, optionalHttpUrl, optionalTraceUrlTemplate } from './checks.js';
import type { SettingGroup } from './components.js';
import { fail, itemString, type SettingReader } from './reader.js';
import type { ComponentName, MapSettings, MetricTarget, Settings } from './settings.js';

type ApiSettings = Pick<Settings, 'query_timeout_secs' | 'record_secs' | 'metric_targets' | 'trace_viewer_url' | 'grafana_trace_url' | 'dashboard_url'>;
type ListenSettings = Pick<Settings, 'http_addr' | 'grpc_addr' | 'otlp_http_addr'>;

/**
 * The split deployment's five other components, by their compose service names. In all-in-one
 * every component's metrics are already in the API's own registry, so there is nothing to scrape.
 */
function defaultMetricTargets(component: ComponentName): MetricTarget[] {
  if (component === 'all-in-one') return [];
  return [
    { job: 'svc-ingest', url: 'http://ingest:4318/metrics' },
    { job: 'svc-writer', url: 'http://writer:9100/metrics' },
    { job: 'svc-assembler', url: 'http://assembler:9100/metrics' },
    { job: 'svc-logminer', url: 'http://logminer:9100/metrics' },
    { job: 'svc-notifier', url: 'http://notifier:9100/metrics' },
  ];
}

/** The top-level settings of the API server (query bounds, recorder, links). */
export function readApi(r: SettingReader, component: ComponentName): ApiSettings {
  return {
    query_timeout_secs: r.int('query_timeout_secs', 15, nonNegative),
    record_secs: r.int('record_secs', 15, nonNegative),
    metric_targets: r.tableList('metric_targets', defaultMetricTargets(component), {}, (item, itemPath) => {
      const job = itemString(item, 'job', itemPath, true);
      fail(nonEmpty(job, `${itemPath}.job`));
      const url = itemString(item, 'url', itemPath, true);
      fail(httpUrl(url, `${itemPath}.url`));
      return { job, url };
    }),
    trace_viewer_url: r.string('trace_viewer_url', '', optionalHttpUrl),
    grafana_trace_url: r.string('grafana_trace_url', '', optionalTraceUrlTemplate),
    dashboard_url: r.string('dashboard_url', '', optionalHttpUrl),
  };
}

/** [map]: services hidden from the map unless infrastructure is shown. */
export function readMap(r: SettingReader): MapSettings {
  return { infra_services: r.stringList('map.infra_services', ['flagd']) };
}

/** Listen addresses; http_addr is OTLP/HTTP (4318) for ingest and the app/API (8090) elsewhere. */
export function readListenAddrs(readerFor: (group: SettingGroup) => SettingReader, component: ComponentName): ListenSettings {
  const httpDefault = component === 'ingest' ? '0.0.0.0:4318' : '0.0.0.0:8090';
  return {
    http_addr: readerFor('http_addr').string('http_addr', httpDefault, listenAddress),
    grpc_addr: readerFor('grpc_addr').string('grpc_addr', '0.0.0.0:4317', listenAddress),
    otlp_http_addr: readerFor('otlp_http_addr').string('otlp_http_addr', '0.0.0.0:4318', listenAddress),
  };
}
