/** A prom-client registry (a component in this process) to samples, as a scrape of it would give. */

import type { Registry } from 'prom-client';
import type { MetricSample } from './sample.js';

export interface RegistrySamples {
  samples: MetricSample[];
  droppedSamples: number;
  nonFiniteSamples: number;
}

/**
 * Reads every metric of `registry` (collect callbacks run) and flattens it to samples: histogram
 * and summary parts keep their own names (`_bucket` with `le`, `_sum`, `_count`). Label values are
 * written as prom-client's text output writes them, so in-process and scraped samples match.
 */
export async function samplesFromRegistry(registry: Registry, maxSamples: number): Promise<RegistrySamples> {
  const result: RegistrySamples = { samples: [], droppedSamples: 0, nonFiniteSamples: 0 };
  for (const metric of await registry.getMetricsAsJSON()) {
    for (const entry of metric.values) {
      const value = entry.value;
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        result.nonFiniteSamples++;
        continue;
      }
      if (result.samples.length >= maxSamples) {
        result.droppedSamples++;
        continue;
      }
      const labels: Record<string, string> = {};
      for (const [key, labelValue] of Object.entries(entry.labels)) {
        if (labelValue !== undefined) labels[key] = String(labelValue);
      }
      const name = (entry as { metricName?: string }).metricName ?? metric.name;
      result.samples.push({ metric: name, labels, value });
    }
  }
  return result;
}
