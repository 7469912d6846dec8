/** Rows of metric_samples: the components' metrics as the API's recorder writes them (7 days). */

import type { Store } from '../model/store.js';
import { PermanentError } from '../util/retry.js';

const SAMPLE_COLUMNS = ['ts_ms', 'job', 'instance', 'metric', 'labels', 'value'] as const;

export interface MetricSampleRow {
  /** Unix ms of the recording tick (one per tick, so replicas line up). */
  tsMs: number;
  /** `svc-ingest`, `svc-writer`, ... or the job a metric target names. */
  job: string;
  /** host:port of the scraped URL, or the in-process name in all-in-one. */
  instance: string;
  /** Full sample name: counters with `_total`, histograms as `_bucket`, `_sum`, `_count`. */
  metric: string;
  /** Every label but the name (`le` included for histogram buckets). */
  labels: Readonly<Record<string, string>>;
  value: number;
}

const s = JSON.stringify;

/**
 * Stores the rows in one insert. Label maps are written with their keys sorted: reads partition
 * series by the labels map, and a map compares by key order as well as content.
 * Non-finite values are refused by the caller (JSON has no NaN).
 */
export async function insertMetricSamples(store: Store, rows: readonly MetricSampleRow[]): Promise<void> {
  if (rows.length === 0) return;
  let payload = '';
  for (const r of rows) {
    if (!Number.isSafeInteger(r.tsMs)) throw new PermanentError('tsMs must be whole Unix milliseconds');
    if (!Number.isFinite(r.value)) throw new PermanentError(`metric ${r.metric} has a non-finite value`);
    let labels = '{';
    let first = true;
    for (const key of Object.keys(r.labels).sort()) {
      labels += `${first ? '' : ','}${s(key)}:${s(r.labels[key])}`;
      first = false;
    }
    payload += `[${r.tsMs},${s(r.job)},${s(r.instance)},${s(r.metric)},${labels}},${r.value}]\n`;
  }
  await store.insertRaw('metric_samples', SAMPLE_COLUMNS, payload);
}
