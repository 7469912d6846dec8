/** Query parameters of GET /api/v1/pipeline/series, each refused with a 400 naming it. */

import { z } from 'zod';
import { badRequest } from '../errors.js';
import { MAX_TEXT_CHARS, param, parsedBy } from '../query-params.js';

export const PIPELINE_JOBS = ['svc-ingest', 'svc-writer', 'svc-assembler', 'svc-logminer', 'svc-notifier', 'svc-api'] as const;
export const SERIES_KINDS = ['rate', 'gauge', 'q50', 'q99'] as const;
export type SeriesKind = (typeof SERIES_KINDS)[number];
/** Contract limit: label pairs in one filter. */
export const MAX_LABEL_PAIRS = 8;

const METRIC = /^[a-z_:][a-z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** The stored sample name to read: for quantiles the histogram's `_bucket` samples. */
export function sampleNameOf(metric: string, kind: SeriesKind): string {
  const quantile = kind === 'q50' || kind === 'q99';
  return quantile && !metric.endsWith('_bucket') ? `${metric}_bucket` : metric;
}

/** The route's own parameters (the window's follow them: a missing metric is the first thing said). */
export const seriesParams = {
  metric: z
    .string({ error: (issue) => (issue.input === undefined ? 'metric is required' : 'metric must be given once') })
    .refine((metric) => metric !== '', { message: 'metric is required', abort: true })
    .refine((metric) => metric.length <= MAX_TEXT_CHARS, { message: `metric must be at most ${MAX_TEXT_CHARS} characters`, abort: true })
    .regex(METRIC, 'metric must match [a-z_:][a-z0-9_:]*'),
  kind: z.enum(SERIES_KINDS, { error: (issue) => (Array.isArray(issue.input) ? 'kind must be given once' : 'kind must be rate, gauge, q50 or q99') }),
  job: param('job', z.enum(PIPELINE_JOBS, { error: `job must be one of ${PIPELINE_JOBS.join(', ')}` })),
  labels: param('labels', parsedBy(parseLabels)).transform((pairs) => pairs ?? []),
};

/** `k=v,k=v`: up to 8 pairs, names as Prometheus label names, values without commas, no key twice. */
export function parseLabels(text: string): [string, string][] {
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
