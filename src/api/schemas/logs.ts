/** Response declarations of the log routes (the contract's Log alert and Log template; docs/logs.md's search). */

import { z } from 'zod';
import { attrPair, count, int64, pair } from './wire.js';

export const logAlert = z.strictObject({
  alert_id: z.string(),
  kind: z.enum(['new', 'spike', 'silence']),
  template_id: z.string(),
  service: z.string(),
  template: z.string(),
  started_at_ns: int64,
  last_at_ns: int64,
  window_count: count,
  peak_count: count,
  baseline_per_window: z.number(),
  active: z.boolean(),
  example_traces: z.array(z.strictObject({ trace_id: z.string(), story_id: z.string().nullable() })),
  baseline_day: z.number().optional(),
  baseline_week: z.number().optional(),
});

const templateFields = {
  template_id: z.string(),
  service: z.string(),
  template: z.string(),
  count: count,
  first_seen_ns: int64,
  last_seen_ns: int64,
  max_severity: z.number().int(),
  alerting: z.boolean(),
};

export const logTemplate = z.strictObject({ ...templateFields, silence_enabled: z.boolean(), bucket_secs: count, buckets: z.array(pair) });

export const silenceSetting = z.strictObject({ enabled: z.boolean(), minutes: z.number().int() });

export const logTemplateDetail = z.strictObject({
  template: z.strictObject(templateFields),
  sample: z.string(),
  bucket_secs: count,
  buckets: z.array(pair),
  recent: z.array(
    z.strictObject({ ts_ns: int64, trace_id: z.string(), span_id: z.string(), severity_number: z.number().int(), story_id: z.string().nullable() }),
  ),
  alerts: z.array(logAlert),
  silence: silenceSetting.nullable(),
});

export const logSearchRow = z.strictObject({
  log_id: z.string(),
  ts_ns: int64,
  service_name: z.string(),
  severity_number: z.number().int(),
  severity_text: z.string(),
  body: z.string(),
  trace_id: z.string(),
  span_id: z.string(),
  template_id: z.string().nullable(),
  template: z.string().nullable(),
  attrs: z.array(attrPair),
  resource: z.array(attrPair),
});

export const logSearchPage = z.strictObject({ logs: z.array(logSearchRow), next_cursor: z.string().nullable() });

/** OpenTelemetry severity ranges by name; 0 is unspecified. */
export const severityLevel = z.enum(['unspecified', 'trace', 'debug', 'info', 'warn', 'error', 'fatal']);

export const logSeries = z.strictObject({
  bucket_secs: count,
  total: count,
  ...(Object.fromEntries(severityLevel.options.map((level) => [level, z.array(pair)])) as Record<z.infer<typeof severityLevel>, z.ZodArray<typeof pair>>),
});
