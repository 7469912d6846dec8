/**
 * When a log count may match a `q` word through the text index over body words (migration 8)
 * instead of reading every body. The engine answers `expr LIKE '%word%'` from the index by scanning
 * its dictionary for the indexed words that contain the word and reading their rows (postings):
 * ~90 ms instead of ~450 ms for a common word over 24 h of 10M logs. But where one part holds more
 * of those words with long postings than the engine's limit (text_index_like_max_postings_to_read),
 * it computes the expression for every row instead, about twice the cost of searching the bodies
 * (`tion` inside 416 frequent words: 240 ms against 120 ms over 3M lines). So each word is first
 * looked up in the dictionaries of the parts the count reads, and goes through the index only where
 * no part passes that limit.
 */

import type { QueryOptions, Store } from '../../model/store.js';

/** The text index over the words of bodies (migration 8), and the expression it indexes, verbatim. */
const BODY_WORDS_INDEX = 'idx_body_words';
export const BODY_WORDS_EXPRESSION = "translate(lower(body), '0123456789', '          ')";

/**
 * Words the index can answer exactly: ASCII letters only, as the indexed expression keeps no digit
 * and a run of letters never spans the separators between its words.
 */
const LETTERS = /^[a-z]+$/;

/** The engine's limits for answering LIKE from the index, as this server has them. */
interface IndexLimits {
  /** Shortest word it scans the dictionary for (shorter ones are matched row by row). */
  minLetters: number;
  /** Most words with long postings per part it reads before falling back to a row-by-row match. */
  maxLongPostings: number;
}

/** How long an answer that the index is missing stands before it is looked for again; once there, it stays. */
const RECHECK_MS = 60_000;
const limitsSeen = new WeakMap<Store, { limits: IndexLimits | null; checkedMs: number }>();

/**
 * The limits, or null where the logs table has no text index over body words (a ClickHouse server
 * older than 26.2 refused it) or the engine cannot answer LIKE from one (older than 26.4).
 */
async function indexLimits(store: Store, options: QueryOptions): Promise<IndexLimits | null> {
  const seen = limitsSeen.get(store);
  if (seen !== undefined && (seen.limits !== null || Date.now() - seen.checkedMs < RECHECK_MS)) return seen.limits;
  const setting = (name: string) => `(SELECT toUInt64OrZero(any(value)) FROM system.settings WHERE name = '${name}')`;
  const [row] = await store.query<{ present: string | number; scan: string | number; min_letters: string | number; max_postings: string | number }>(
    `SELECT
       (SELECT count() FROM system.data_skipping_indices WHERE database = currentDatabase() AND table = 'logs' AND name = '${BODY_WORDS_INDEX}') AS present,
       ${setting('use_text_index_like_evaluation_by_dictionary_scan')} AS scan,
       ${setting('text_index_like_min_pattern_length')} AS min_letters,
       ${setting('text_index_like_max_postings_to_read')} AS max_postings`,
    undefined,
    options,
  );
  const usable = row !== undefined && Number(row.present) > 0 && Number(row.scan) === 1 && Number(row.max_postings) > 0;
  const limits = usable ? { minLetters: Math.max(1, Number(row.min_letters)), maxLongPostings: Number(row.max_postings) } : null;
  limitsSeen.set(store, { limits, checkedMs: Date.now() });
  return limits;
}

/**
 * The lower-cased `words` a count over the parts named `parts` (every part when null) matches
 * through the text index: words of letters, long enough for the engine's dictionary scan, whose
 * matching indexed words have long postings within the engine's limit in every one of those parts.
 * A part written after this look-up may pass the limit; the engine then matches row by row there,
 * slower but with the same result.
 */
export async function wordsThroughIndex(
  store: Store,
  words: readonly string[],
  parts: readonly string[] | null,
  options: QueryOptions,
): Promise<ReadonlySet<string>> {
  const candidates = [...new Set(words)].filter((w) => LETTERS.test(w));
  if (candidates.length === 0) return new Set();
  const limits = await indexLimits(store, options);
  if (limits === null) return new Set();
  const long = candidates.filter((w) => w.length >= limits.minLetters);
  if (long.length === 0 || (parts !== null && parts.length === 0)) return new Set(long);
  const rows = await store.query<{ word: string; most: string | number }>(
    `SELECT word, max(long_postings) AS most FROM (
       SELECT part_name, word, countIf(NOT has_embedded_postings) AS long_postings
       FROM mergeTreeTextIndex(currentDatabase(), 'logs', '${BODY_WORDS_INDEX}')
       ARRAY JOIN {words:Array(String)} AS word
       WHERE position(token, word) > 0${parts === null ? '' : ' AND part_name IN {parts:Array(String)}'}
       GROUP BY part_name, word)
     GROUP BY word`,
    parts === null ? { words: long } : { words: long, parts: [...parts] },
    options,
  );
  const tooMany = new Set(rows.filter((r) => Number(r.most) > limits.maxLongPostings).map((r) => r.word));
  return new Set(long.filter((w) => !tooMany.has(w)));
}
