/**
 * The assembler's baseline read: recent non-error trace summaries with their operations, per
 * endpoint. Bounded twice, so a reload costs the same whatever the traffic: at most
 * `perEndpoint` most recent traces of each endpoint (a p99 and a 1 % presence are well defined
 * over 1,000 traces) and at most `maxRows` rows in all (many endpoints).
 */

import type { BaselineSample } from '../analysis/types.js';
import { endpointKey } from '../analysis/baseline.js';
import type { QueryOptions, Store } from '../model/store.js';
import { oldestAllowedNs } from './lifetimes.js';

export interface BaselineSampleQuery {
  /** Oldest trace start to read, Unix ns (now - baseline window). */
  sinceNs: bigint;
  /** Clock for the trace_summaries lifetime filter. */
  nowMs: number;
  perEndpoint: number;
  maxRows: number;
}

interface SampleRow {
  endpoint_service: string;
  endpoint_name: string;
  duration_ns: string;
  ops: string[];
  op_durations_ns: string[];
}

/** Samples per endpoint key (analysis's endpointKey), newest first; every sample is non-error. */
export async function readBaselineSamples(store: Store, query: BaselineSampleQuery, options: QueryOptions = {}): Promise<Map<string, BaselineSample[]>> {
  const oldestNs = oldestAllowedNs('trace_summaries', query.nowMs);
  const rows = await store.query<SampleRow>(
    // The keys are chosen first (newest perEndpoint per endpoint) and only their rows' op arrays
    // are read: measured on 600,000 summaries of 10 ops, 0.45 s and half the engine memory of
    // sorting whole rows. Copies of one trace piece (a replay) collapse in the outer LIMIT 1 BY;
    // they may take two of an endpoint's slots first, which costs a sample, never a double count.
    // Distinct pieces of one trace (different ts_ns) stay distinct, as each is its own trace.
    `SELECT endpoint_service, endpoint_name, duration_ns, ops, op_durations_ns
     FROM trace_summaries
     WHERE (ts_ns, trace_id) IN (
         SELECT ts_ns, trace_id
         FROM trace_summaries
         WHERE ts_ns >= {since_ns:Int64} AND NOT is_error
         ORDER BY ts_ns DESC
         LIMIT {per_endpoint:UInt32} BY endpoint_service, endpoint_name
         LIMIT {max_rows:UInt32}
       )
       AND ts_ns >= {since_ns:Int64}
     ORDER BY ts_ns DESC
     LIMIT 1 BY ts_ns, trace_id`,
    { since_ns: query.sinceNs > oldestNs ? query.sinceNs : oldestNs, per_endpoint: query.perEndpoint, max_rows: query.maxRows },
    options,
  );
  const samples = new Map<string, BaselineSample[]>();
  for (const row of rows) {
    const key = endpointKey(row.endpoint_service, row.endpoint_name);
    let list = samples.get(key);
    if (list === undefined) samples.set(key, (list = []));
    list.push({
      duration_ns: BigInt(row.duration_ns),
      is_error: false,
      ops: row.ops.map((op, i) => ({ op, duration_ns: BigInt(row.op_durations_ns[i] ?? '0') })),
    });
  }
  return samples;
}
