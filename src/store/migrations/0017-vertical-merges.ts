/**
 * Every merge of spans and logs that writes a wide part writes it one column at a time (the
 * engine's vertical merge), however few rows it joins. The engine chooses that only from 131,072
 * rows on (and, for spans, from 11 columns outside the sort key and the indexes' expressions; it
 * has fewer), so under a steady load the first merges of each insert's 10k-row parts (eight or
 * nine of them, up to about 90k rows) ran horizontally: each held a block of every column of every
 * part it joined, and a buffer for every column written. Those merges held the most of the engine's
 * memory: about 55-70 MiB for one of spans and 20-40 MiB for one of logs, measured in an
 * engine-only run at 10k spans/s + 10k logs/s (bench/engine-memory), against a few MiB each
 * vertically, for the same merge CPU. Migration 14 made the logs table merge vertically past the
 * engine's row threshold; this removes the threshold for it and spans. Merges into compact parts
 * (under 10 MiB) stay horizontal, as the engine only merges wide parts vertically, and hold little.
 * The settings apply to merges chosen from now on; the parts stored are read as before.
 */

import type { Migration } from './migration.js';

/** The tables whose every merge into a wide part runs column by column. */
export const VERTICAL_MERGE_TABLES = ['spans', 'logs'] as const;

export const migration0017: Migration = {
  version: 17,
  name: 'vertical-merges',
  statements: VERTICAL_MERGE_TABLES.map(
    (table) => `ALTER TABLE ${table} MODIFY SETTING vertical_merge_algorithm_min_rows_to_activate = 1, vertical_merge_algorithm_min_columns_to_activate = 1`,
  ),
};
