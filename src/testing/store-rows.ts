/** Tests store rows directly, as the writer would store the payloads it encodes. */

import type { LogRow, SpanRow } from '../model/signals.js';
import type { Store } from '../model/store.js';
import { encodeLogRows, insertLogRows } from '../store/logs.js';
import { encodeSpanRows, insertSpanRows } from '../store/spans.js';

/** Stores span rows in one insert. */
export async function insertSpans(store: Store, rows: readonly SpanRow[]): Promise<void> {
  if (rows.length === 0) return;
  const format = store.bulkFormat ?? 'JSONCompactEachRow';
  await insertSpanRows(store, encodeSpanRows(rows, format), format);
}

/** Stores log rows in one insert. */
export async function insertLogs(store: Store, rows: readonly LogRow[]): Promise<void> {
  if (rows.length === 0) return;
  const format = store.bulkFormat ?? 'JSONCompactEachRow';
  await insertLogRows(store, encodeLogRows(rows, format), format);
}
