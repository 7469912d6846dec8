import { REFUSALS, type Refusal } from './in-flight-budget.js';

/** Why an export is answered "retry later": a bound of the in-flight budget, memory, a full bus, or a stop. */
export type RetryReason = Refusal | 'bus_full';

/** Every `reason` label of svc_ingest_backpressure_total. */
export const RETRY_REASONS: readonly RetryReason[] = [...REFUSALS, 'bus_full'];

/** What a throttled exporter is told to wait: the HTTP Retry-After header and gRPC RetryInfo's delay. */
export const RETRY_AFTER_SECS = 1;

/** The answer when the bus could not take an export (the Kafka broker unreachable); counted in svc_ingest_publish_failures_total. */
export const BROKER_UNAVAILABLE_MESSAGE = 'the message broker is unavailable, retry later';

export function retryMessage(reason: RetryReason): string {
  if (reason === 'stopping') return 'ingest is stopping, retry later';
  if (reason === 'bus_full') return 'the bus is full, retry later';
  if (reason === 'memory') return 'svc is short of memory, retry later';
  return 'ingest is at capacity, retry later';
}
