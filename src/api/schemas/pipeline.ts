/** Response declarations of the pipeline routes and the app config. */

import { z } from 'zod';
import { count, int64 } from './wire.js';

export const pipelineSeries = z.strictObject({
  metric: z.string(),
  kind: z.enum(['rate', 'gauge', 'q50', 'q99']),
  bucket_secs: count,
  points: z.array(z.tuple([z.number(), z.number().nullable()])),
});

export const lagRow = z.strictObject({ group: z.string(), topic: z.string(), committed: int64, end: int64, lag: int64 });

export const lagRows = z.array(lagRow);

export const appConfig = z.strictObject({
  trace_viewer_url: z.string().nullable(),
  dashboard_url: z.string().nullable(),
  auth_enabled: z.boolean(),
  infra_services: z.array(z.string()),
  /** Beyond the contract (its config may gain fields): a `{trace_id}` URL template opening a trace in Grafana, null when unset. */
  grafana_trace_url: z.string().nullable(),
});
