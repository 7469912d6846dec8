import type { LogRow, SpanRow } from '../model/signals.js';

/**
 * Rows a record was encoded from, keyed by the record's value Buffer. The in-process bus hands
 * consumers the very Buffer ingest published, so the writer can take the rows instead of decoding
 * the bytes again; a record from Kafka (another Buffer) simply misses and is decoded. Entries are
 * taken once (the writer reads every record) and weakly held, so nothing outlives its record.
 */
const rowsByValue = new WeakMap<Buffer, SpanRow[] | LogRow[]>();

export function rememberRows(value: Buffer, rows: SpanRow[] | LogRow[]): void {
  rowsByValue.set(value, rows);
}

/** The rows `value` was encoded from, once; undefined when unknown or already taken. */
export function takeRows(value: Buffer): SpanRow[] | LogRow[] | undefined {
  const rows = rowsByValue.get(value);
  if (rows !== undefined) rowsByValue.delete(value);
  return rows;
}
