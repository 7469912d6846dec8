/** Response declarations of the trace and service routes (the contract's Trace, service map, RED series). */

import { z } from 'zod';
import { logAlert } from './logs.js';
import { attrPair, count, int64 } from './wire.js';

export const span = z.strictObject({
  span_id: z.string(),
  parent_span_id: z.string(),
  service_name: z.string(),
  span_name: z.string(),
  kind: z.enum(['unspecified', 'internal', 'server', 'client', 'producer', 'consumer']),
  start_ns: int64,
  duration_ns: int64,
  status: z.enum(['unset', 'ok', 'error']),
  status_message: z.string(),
  attrs: z.array(attrPair),
  resource: z.array(attrPair),
  events: z.array(z.strictObject({ ts_ns: int64, name: z.string(), attrs: z.array(attrPair) })),
  self_ns: int64,
});

export const traceLog = z.strictObject({
  log_id: z.string(),
  ts_ns: int64,
  span_id: z.string(),
  service_name: z.string(),
  severity_number: z.number().int(),
  severity_text: z.string(),
  body: z.string(),
});

export const trace = z.strictObject({ trace_id: z.string(), spans: z.array(span), logs: z.array(traceLog), story_id: z.string().nullable() });

export const services = z.array(z.string());

export const traceLogTemplate = z.strictObject({ log_id: z.string(), template_id: z.string(), template: z.string(), alert: logAlert.nullable() });

export const mapEdge = z.strictObject({
  parent: z.string(),
  child: z.string(),
  calls: count,
  errors: count,
  error_rate: z.number(),
  avg_duration_ns: int64,
});

export const mapNode = z.strictObject({
  service: z.string(),
  calls: count,
  rate: z.number(),
  error_ratio: z.number(),
  p99_ns: int64,
  baseline_p99_ns: int64,
  health: z.enum(['ok', 'slow', 'error']),
});

export const serviceMap = z.strictObject({ edges: z.array(mapEdge), nodes: z.array(mapNode) });

export const redBucket = z.strictObject({ bucket: z.number().int(), rate: z.number(), error_ratio: z.number(), p50_ns: int64, p95_ns: int64, p99_ns: int64 });

export const serviceRed = z.strictObject({ service: z.string(), bucket_secs: count, calls: count, errors: count, buckets: z.array(redBucket) });
