/**
 * A text (inverted) index over the words of log bodies, for text queries of common words. The
 * n-gram bloom filter (migration 6) skips only granules without a word, so a word found all over
 * the window (`timeout`) read every body: ~450 ms for a series over 24 h of 10M logs, most of it
 * decompressing them. This index lists, per word, the rows holding it; the engine answers
 * `expr LIKE '%word%'` from its dictionary and postings without reading a body (the word is looked
 * for inside every indexed word, so the match stays a substring match): ~90 ms there.
 * - The expression lowers ASCII letters (as positionCaseInsensitive compares them) and turns digits
 *   into separators: ids, numbers and hex values then add only their letter runs to the dictionary
 *   (58 MiB for 10M generated logs with a random hex id each, against 214 MiB with digits kept,
 *   whose dictionary scan was slower than reading the bodies). So only words of letters are
 *   answered from it (reads/log-words-index.ts); the others keep the n-gram filter.
 * - ClickHouse 26.2 or newer has text indexes. An older server refuses the statements and is left
 *   without this index (the migration says so and is recorded): text queries then read the bodies
 *   as before, because the read path uses the index only where the table has it and the
 *   server can look LIKE patterns up in it.
 * - MATERIALIZE builds it for parts written before (a background mutation); until a part has it,
 *   that part's bodies are read, so results never depend on it having finished.
 */

import type { Migration } from './migration.js';

export const migration0008: Migration = {
  version: 8,
  name: 'log-body-words',
  statements: [],
  optionalStatements: [
    "ALTER TABLE logs ADD INDEX IF NOT EXISTS idx_body_words translate(lower(body), '0123456789', '          ') TYPE text(tokenizer = 'splitByNonAlpha')",
    'ALTER TABLE logs MATERIALIZE INDEX idx_body_words',
  ],
};
