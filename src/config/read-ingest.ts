import type { Check, SettingReader } from './reader.js';
import { positiveInt } from './checks.js';
import type { IngestSettings } from './settings.js';

/**
 * Below this the budget could not hold one ordinary export (a few hundred kB on the wire, some
 * 30 times that decoded) beside another, and ingest would run one export at a time.
 */
export const MIN_IN_FLIGHT_BYTES = 1024 * 1024;

const atLeastMinInFlightBytes: Check<number> = (value, path) => (value >= MIN_IN_FLIGHT_BYTES ? null : `${path} must be at least ${MIN_IN_FLIGHT_BYTES}`);

/**
 * Below this the process could not even start its store and servers: every export would be
 * refused for memory (but one a second).
 */
export const MIN_MEMORY_BYTES = 64 * 1024 * 1024;

const offOrAtLeastMinMemoryBytes: Check<number> = (value, path) =>
  value === 0 || value >= MIN_MEMORY_BYTES ? null : `${path} must be 0 (off) or at least ${MIN_MEMORY_BYTES}`;

/**
 * [ingest]: how much export work may be in flight at once (read, decoded, not yet acknowledged by
 * the bus). Past either bound an export is answered "retry later" at once (HTTP 503 + Retry-After,
 * gRPC UNAVAILABLE + RetryInfo) instead of queuing, so memory stays bounded whatever the number
 * of clients.
 *
 * - max_in_flight_requests (256): exports being read, decoded or published at once. Each costs a
 *   little on its own; the byte bound is the real memory guard.
 * - max_in_flight_bytes (256 MiB): request bytes plus an estimate of their decoded rows (about 32
 *   times the uncompressed body, reserved before decoding). The rest of the process holds ~1 GiB
 *   at full ingest; with this budget 1,000 keep-alive exporters flooding 1,000-span exports peaked
 *   at 1.19 GiB RSS (2 cores). One export larger than the budget (a legal 64 MiB message) is still
 *   taken when it can run alone.
 * - max_memory_bytes (1 GiB; 0 turns it off): the process's anonymous resident memory (heaps,
 *   native buffers, the embedded store's working memory) above which new exports are refused,
 *   still admitting about one a second. It bounds what admitted exports cause downstream (traces
 *   being assembled, inserts being built and merged), which the in-flight budget cannot see.
 */
export function readIngest(r: SettingReader): IngestSettings {
  return {
    max_in_flight_requests: r.int('ingest.max_in_flight_requests', 256, positiveInt),
    max_in_flight_bytes: r.int('ingest.max_in_flight_bytes', 256 * 1024 * 1024, atLeastMinInFlightBytes),
    max_memory_bytes: r.int('ingest.max_memory_bytes', 1024 * 1024 * 1024, offOrAtLeastMinMemoryBytes),
  };
}
