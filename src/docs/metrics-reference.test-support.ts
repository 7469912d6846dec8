/**
 * The metrics reference of docs/metrics.md, generated from the metric registry: every component's
 * metric set is created on a fresh prom-client Registry, as the component creates it at start-up,
 * and read back (name, type, label names, help). The docs drift test holds the page to it.
 */
import { Counter, Gauge, Histogram, Registry, Summary, type Metric } from 'prom-client';
import { createApiMetrics } from '../api/metrics.js';
import { createAssemblerMetrics } from '../assembler/metrics.js';
import type { DiskBus } from '../bus/disk/disk-bus.js';
import { registerDiskBusMetrics } from '../bus/disk/metrics.js';
import { createIngestMetrics, registerInFlightGauges } from '../ingest/metrics.js';
import { createLogminerMetrics } from '../logminer/metrics.js';
import { createNotifierMetrics } from '../notifier/metrics.js';
import { createRecorderMetrics } from '../recorder/metrics.js';
import { createWriterMetrics } from '../writer/metrics.js';

export interface DocumentedMetric {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary';
  labels: string[];
  component: string;
  help: string;
}

/** Each component's metric set as it registers it; the values read at scrape time are not needed here. */
const METRIC_SETS: [component: string, register: (registry: Registry) => void][] = [
  [
    'ingest',
    (registry) => {
      createIngestMetrics(registry);
      registerInFlightGauges(registry, () => ({ requests: 0, bytes: 0 }));
    },
  ],
  ['embedded bus', (registry) => registerDiskBusMetrics({ diskBytes: 0, refused: 0 } as unknown as DiskBus, 0, registry)],
  ['writer', (registry) => void createWriterMetrics(registry)],
  ['assembler', (registry) => void createAssemblerMetrics(registry)],
  ['logminer', (registry) => void createLogminerMetrics(registry, { dataLagSecs: () => 0 })],
  ['notifier', (registry) => void createNotifierMetrics(registry, () => [])],
  ['api', (registry) => void createApiMetrics(registry)],
  ['api (recorder)', (registry) => void createRecorderMetrics(registry)],
];

function typeOf(metric: Metric): DocumentedMetric['type'] {
  if (metric instanceof Counter) return 'counter';
  if (metric instanceof Gauge) return 'gauge';
  if (metric instanceof Histogram) return 'histogram';
  if (metric instanceof Summary) return 'summary';
  throw new Error('unknown metric type');
}

export function everyMetric(): DocumentedMetric[] {
  return METRIC_SETS.flatMap(([component, register]) => {
    const registry = new Registry();
    register(registry);
    // The typings say MetricObject; the array holds the metric instances themselves.
    return (registry.getMetricsAsArray() as unknown as Metric[]).map((metric) => {
      const { name, help, labelNames } = metric as Metric & { name: string; help: string; labelNames?: string[] };
      return { name, type: typeOf(metric), labels: [...(labelNames ?? [])], component, help };
    });
  });
}

/** The table docs/metrics.md holds between its markers. */
export function renderMetricsTable(metrics: DocumentedMetric[] = everyMetric()): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|');
  const rows = metrics.map(
    (metric) =>
      `| \`${metric.name}\` | ${metric.type} | ${metric.labels.length === 0 ? '' : metric.labels.map((label) => `\`${label}\``).join(', ')} | ${metric.component} | ${cell(metric.help)} |`,
  );
  return ['| Metric | Type | Labels | Component | Meaning |', '|---|---|---|---|---|', ...rows].join('\n');
}

export const METRICS_TABLE_BEGIN =
  '<!-- metrics table: generated from the metric registry by src/docs/metrics-reference.test-support.ts; SVC_WRITE_DOCS=1 node --test dist/src/docs/docs-drift.test.js rewrites it -->';
export const METRICS_TABLE_END = '<!-- end of the generated metrics table -->';
