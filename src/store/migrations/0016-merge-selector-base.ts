/**
 * spans, trace_spans and logs merge parts eight at a time (merge_selector_base = 8) rather than the
 * engine's five. Under a steady load each insert writes a small part per table, and merges rewrite
 * every row once per level of the merge tree: joining more parts of a like size at each level means
 * fewer levels, so each row is rewritten fewer times. In an engine-only run (batches of 10k spans
 * and 10k logs back to back, as the writer inserts them, until the merges settle) the merge threads
 * spent about a third less CPU per stored item. The cost: a table settles at about twice as many
 * parts (ten rather than four or five after 2.4M items), which reads by id and searches open in
 * turn; a part more or less measured no different for them (docs/jaeger.md), and the numbers stay
 * far below the engine's limits on parts per partition. The setting only applies to merges chosen
 * from now on: parts already written are left as they are.
 * A ClickHouse server older than the setting refuses it; svc then keeps the server's default.
 */

import type { Migration } from './migration.js';

/** The tables written by every insert of the ingest load (trace_spans through its view). */
export const MERGE_SELECTOR_TABLES = ['spans', 'trace_spans', 'logs'] as const;
export const MERGE_SELECTOR_BASE = 8;

export const migration0016: Migration = {
  version: 16,
  name: 'merge-selector-base',
  statements: [],
  optionalStatements: MERGE_SELECTOR_TABLES.map((table) => `ALTER TABLE ${table} MODIFY SETTING merge_selector_base = ${MERGE_SELECTOR_BASE}`),
};
