import { xxh3 } from '@node-rs/xxhash';
import type { LogRow } from '../model/signals.js';

/**
 * The log id: unsigned xxh3-64 of the record's content as a decimal string, so a replayed or
 * re-encoded record keeps its id. The canonical form is a JSON array (unambiguous: every string is
 * quoted and escaped) of service, time, observed time, trace id, span id, severity number,
 * severity text, body and attributes, with times as decimal strings to keep them exact.
 */
export function logIdOf(row: Omit<LogRow, 'logId' | 'resource' | 'scopeName' | 'scopeVersion'>): string {
  const canonical = JSON.stringify([
    row.serviceName,
    row.tsNs.toString(),
    row.observedTsNs.toString(),
    row.traceId,
    row.spanId,
    row.severityNumber,
    row.severityText,
    row.body,
    row.attrs,
  ]);
  return xxh3.xxh64(canonical).toString();
}
