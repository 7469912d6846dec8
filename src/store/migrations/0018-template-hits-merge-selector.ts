/**
 * template_hits merges parts eight at a time (merge_selector_base = 8), as spans, trace_spans and
 * logs do since migration 16. It takes one row per mined log line, in inserts of up to the log
 * miner's max_batch (two or so a second at 10k logs/s), so its merges rewrite as many rows as the
 * logs table's; joining more parts at each level of the merge tree rewrites each row fewer times.
 * In a process of its own (bench/template-hits-costs: 800k hits in batches of 5,000, merges left
 * to settle) its merge threads spent about a third less CPU per hit. The cost, as for the other
 * tables: a day's partition settles at a few more parts, which the template routes' reads open in
 * turn. The setting only applies to merges chosen from now on.
 * A ClickHouse server older than the setting refuses it; svc then keeps the server's default.
 */

import type { Migration } from './migration.js';
import { MERGE_SELECTOR_BASE } from './0016-merge-selector-base.js';

export const migration0018: Migration = {
  version: 18,
  name: 'template-hits-merge-selector',
  statements: [],
  optionalStatements: [`ALTER TABLE template_hits MODIFY SETTING merge_selector_base = ${MERGE_SELECTOR_BASE}`],
};
