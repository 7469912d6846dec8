/**
 * Synthetic log rows for the store benchmarks: one sequence of logs, numbered on from call to call so
 * that every batch holds new ids, half of them in traces of sixteen logs, twenty services, a tenth
 * at ERROR. The engine benches insert them as the writer would.
 */

import type { LogRow } from '../src/model/signals.js';

/** Returns a function making the next `batchRows` logs of the sequence, timed from `baseNs`. */
export function logRowSequence(batchRows: number): (baseNs: bigint) => LogRow[] {
  let sequence = 0;
  return (baseNs) =>
    Array.from({ length: batchRows }, (_, i) => {
      const n = sequence++;
      return {
        logId: ((BigInt(n) * 2654435761n) % 2n ** 63n).toString(),
        tsNs: baseNs + BigInt(n) * 1_000n,
        observedTsNs: baseNs + BigInt(n) * 1_000n,
        traceId: i % 2 === 0 ? (n >> 4).toString(16).padStart(32, '0') : '',
        spanId: i % 2 === 0 ? n.toString(16).padStart(16, '0') : '',
        serviceName: `service-${i % 20}`,
        severityNumber: i % 10 === 0 ? 17 : 9,
        severityText: i % 10 === 0 ? 'ERROR' : 'INFO',
        body: `order ${n} processed in ${i % 37} ms for user u-${i % 100} from warehouse ${i % 7}`,
        attrs: [['attempt', i % 3]],
        resource: [['service.name', `service-${i % 20}`]],
        scopeName: 'bench',
        scopeVersion: '',
      };
    });
}
