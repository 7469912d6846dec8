/** Tests store rows directly, as the writer would store the payloads it encodes. */

import type { LogRow, SpanRow } from '../model/signals.js';
import type { Store } from '../model/store.js';
import { encodeLogLines, insertLogLines } from '../store/logs.js';
import { encodeSpanLines, insertSpanLines } from '../store/spans.js';

/** Stores span rows in one insert. */
export async function insertSpans(store: Store, rows: readonly SpanRow[]): Promise<void> {
  if (rows.length === 0) return;
  await insertSpanLines(store, encodeSpanLines(rows));
}

/** Stores log rows in one insert. */
export async function insertLogs(store: Store, rows: readonly LogRow[]): Promise<void> {
  if (rows.length === 0) return;
  await insertLogLines(store, encodeLogLines(rows));
}
