/**
 * Numbered span and log rows for the schema upgrade tests: each index gives one distinct row,
 * spread over five services and `traceCount` traces, so a digest of the stored rows tells whether
 * a migration changed any of them.
 */

import type { LogRow, SpanRow } from '../model/signals.js';

export interface NumberedRows {
  /** The first row's time; row `index` is `index` µs later. */
  nowNs: bigint;
  /** How many traces the rows share (row `index` belongs to trace `index % traceCount`). */
  traceCount: number;
  /** Log ids are this plus the index, distinct from other tests' ids in the same store. */
  logIdBase: number;
}

function traceIdOf(index: number, rows: NumberedRows): string {
  return (index % rows.traceCount).toString(16).padStart(32, '0');
}

/** Span `index`: a server span of 5 µs, every ninth one failed. */
export function numberedSpan(index: number, rows: NumberedRows): SpanRow {
  const startNs = rows.nowNs + BigInt(index) * 1_000n;
  return {
    traceId: traceIdOf(index, rows),
    spanId: index.toString(16).padStart(16, '0'),
    parentSpanId: '',
    serviceName: `service-${index % 5}`,
    name: `GET /orders/${index}`,
    kind: 'server',
    startNs,
    endNs: startNs + 5_000n,
    status: index % 9 === 0 ? 'error' : 'unset',
    statusMessage: '',
    attrs: [['n', index]],
    resource: [['service.name', `service-${index % 5}`]],
    events: [],
    scopeName: 'scope',
    scopeVersion: '1.0',
  };
}

/** Log `index`: an INFO line of the same trace as span `index`. */
export function numberedLog(index: number, rows: NumberedRows): LogRow {
  const tsNs = rows.nowNs + BigInt(index) * 1_000n;
  return {
    logId: String(rows.logIdBase + index),
    tsNs,
    observedTsNs: tsNs,
    traceId: traceIdOf(index, rows),
    spanId: '',
    serviceName: `service-${index % 5}`,
    severityNumber: 9,
    severityText: 'INFO',
    body: `order ${index} shipped after ${index % 61} ms`,
    attrs: [['n', index]],
    resource: [['service.name', `service-${index % 5}`]],
    scopeName: 'scope',
    scopeVersion: '',
  };
}
