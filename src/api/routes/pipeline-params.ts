/** Query parameters of GET /api/v1/pipeline/series, each refused with a 400 naming it. */

import { badRequest } from '../errors.js';
import { MAX_TEXT_CHARS, single, type Query } from '../query-params.js';

export const PIPELINE_JOBS = ['svc-ingest', 'svc-writer', 'svc-assembler', 'svc-logminer', 'svc-notifier', 'svc-api'] as const;
export const SERIES_KINDS = ['rate', 'gauge', 'q50', 'q99'] as const;
export type SeriesKind = (typeof SERIES_KINDS)[number];
/** Contract limit: label pairs in one filter. */
export const MAX_LABEL_PAIRS = 8;

const METRIC = /^[a-z_:][a-z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

export interface SeriesQuery {
  /** As requested; echoed in the response. */
  metric: string;
  /** The stored sample name to read: for quantiles the histogram's `_bucket` samples. */
  sampleName: string;
  kind: SeriesKind;
  job?: string;
  labels: [string, string][];
}

export function parseSeriesQuery(query: Query): SeriesQuery {
  const metric = single(query, 'metric');
  if (metric === undefined || metric === '') throw badRequest('metric is required');
  if (metric.length > MAX_TEXT_CHARS) throw badRequest(`metric must be at most ${MAX_TEXT_CHARS} characters`);
  if (!METRIC.test(metric)) throw badRequest('metric must match [a-z_:][a-z0-9_:]*');

  const kindText = single(query, 'kind');
  const kind = SERIES_KINDS.find((k) => k === kindText);
  if (kind === undefined) throw badRequest('kind must be rate, gauge, q50 or q99');

  const jobText = single(query, 'job');
  let job: string | undefined;
  if (jobText !== undefined && jobText !== '') {
    job = PIPELINE_JOBS.find((j) => j === jobText);
    if (job === undefined) throw badRequest(`job must be one of ${PIPELINE_JOBS.join(', ')}`);
  }

  const quantile = kind === 'q50' || kind === 'q99';
  const sampleName = quantile && !metric.endsWith('_bucket') ? `${metric}_bucket` : metric;
  return { metric, sampleName, kind, job, labels: parseLabels(single(query, 'labels')) };
}

/** `k=v,k=v`: up to 8 pairs, names as Prometheus label names, values without commas, no key twice. */
export function parseLabels(text: string | undefined): [string, string][] {
  if (text === undefined || text === '') return [];
  const parts = text.split(',');
  const refused = badRequest(`labels must be k=v pairs, at most ${MAX_LABEL_PAIRS}`);
  if (parts.length > MAX_LABEL_PAIRS) throw refused;
  const pairs: [string, string][] = [];
  for (const part of parts) {
    const eq = part.indexOf('=');
    if (eq < 0) throw refused;
    const key = part.slice(0, eq);
    const value = part.slice(eq + 1);
    if (!LABEL_NAME.test(key) || key.length > MAX_TEXT_CHARS) throw refused;
    if ([...value].length > MAX_TEXT_CHARS) throw badRequest(`label values must be at most ${MAX_TEXT_CHARS} characters`);
    if (pairs.some(([seen]) => seen === key)) throw badRequest(`labels must not name ${key} twice`);
    pairs.push([key, value]);
  }
  return pairs;
}
