/**
 * Optional parts that one line of an event has and another not, away from the trailing remarks
 * (optional-tail.ts):
 * - a structured logger's extra fields: a call that appends optional context (`request done
 *   method=GET status=200` and `… status=502 retry=1 cause=timeout`) ends its lines in as many
 *   `key=value` fields as it was given. A run of fields that ends a line after a field the two
 *   share is such an extra: the template ends in one wildcard standing for them.
 * - a group in parentheses or brackets in the middle of a line (`connected to db-1 (attempt 2) in
 *   35 ms` against `connected to db-1 in 35 ms`, `resized [cached] in 4 ms`): a short balanced
 *   group that one line has between tokens both share, as a format's optional `(attempt %d)`.
 * - an adverb in the middle of a line (`session <*> abruptly closed by peer` against `session <*>
 *   closed by peer`), as a format's optional `%s`.
 * All join lines of different token counts (elastic.ts); the shared tokens around the run are
 * the evidence that the lines are of one event.
 */
import { WILDCARD } from './masking.js';
import { MAX_REMARK_TOKENS, isField } from './optional-tail.js';

/** More extra fields than this are more than optional context. */
export const MAX_EXTRA_FIELDS = 4;

/**
 * Whether tokens[from, to), which ends the line, are extra fields after a field: each a
 * `key=value` field, or the bare wildcard a template keeps for them.
 */
export function isFieldTail(tokens: readonly string[], from: number, to: number): boolean {
  if (to !== tokens.length || from < 1 || to <= from || to - from > MAX_EXTRA_FIELDS) return false;
  if (!isField(tokens[from - 1]!)) return false;
  // A format that prints its fields empty (`logname= uid=0 … ruser= rhost=…`) prints every field it
  // has: a line with more fields is another statement, not the same one given more context.
  for (let i = from - 1; i >= 0 && isField(tokens[i]!); i--) if (tokens[i]!.endsWith('=')) return false;
  for (let i = from; i < to; i++) {
    const t = tokens[i]!;
    if (t !== WILDCARD && !isField(t)) return false;
  }
  return true;
}

/**
 * Tokens a mid-line group needs on each side: with one (`signal <*> (<*>) received<*>` against
 * `signal process started`), too little of the line is left to say the two are one event.
 */
export const MIN_GROUP_SIDE_TOKENS = 2;

/** `(`, `[`, and what closes them. */
function closerOf(c: number): number {
  return c === 40 ? 41 : c === 91 ? 93 : -1;
}

/**
 * Whether tokens[from, to), with MIN_GROUP_SIDE_TOKENS tokens before and after it, is one group in parentheses or brackets of at
 * most MAX_REMARK_TOKENS tokens: its first token opens it, its last closes it, and it holds no
 * other bracket of its kind (`(a) and (b)` is two).
 */
export function isMidGroup(tokens: readonly string[], from: number, to: number): boolean {
  if (to + MIN_GROUP_SIDE_TOKENS > tokens.length || from < MIN_GROUP_SIDE_TOKENS || to <= from || to - from > MAX_REMARK_TOKENS) return false;
  const first = tokens[from]!;
  const last = tokens[to - 1]!;
  const open = first.charCodeAt(0);
  const close = closerOf(open);
  if (close < 0 || last.charCodeAt(last.length - 1) !== close) return false;
  let depth = 0;
  for (let i = from; i < to; i++) {
    const t = tokens[i]!;
    for (let j = 0; j < t.length; j++) {
      const c = t.charCodeAt(j);
      if (c === open) depth++;
      else if (c === close) {
        depth--;
        // Closed before its end: more than one group.
        if (depth === 0 && (i !== to - 1 || j !== t.length - 1)) return false;
      }
    }
  }
  return depth === 0;
}

/**
 * Whether a template ends in the slot fieldTailShape (elastic.ts) gives it for extra fields: a
 * wildcard, alone or closing a bracket or brace, after a field.
 */
export function endsInFieldSlot(tokens: readonly string[]): boolean {
  const n = tokens.length;
  if (n < 2) return false;
  const last = tokens[n - 1]!;
  return (last === WILDCARD || last === `${WILDCARD}]` || last === `${WILDCARD}}`) && isField(tokens[n - 2]!);
}

/**
 * Words ending in `ly` that are no adverbs of manner, or that name another event when present
 * (`only`, `daily`): never an optional word.
 */
const NOT_OPTIONAL = new Set([
  'only',
  'reply',
  'apply',
  'supply',
  'assembly',
  'family',
  'anomaly',
  'multiply',
  'rely',
  'early',
  'daily',
  'weekly',
  'hourly',
  'monthly',
  'yearly',
  'nightly',
  'partially',
  'poly',
]);

/** Adverbs a format may print or leave out that carry no `ly`. */
const PLAIN_ADVERBS = new Set(['already', 'again', 'still', 'now']);

/**
 * Articles and the auxiliaries `be` and `have`: words that carry no content of their own, which a
 * format may print or leave out (`removed <*> from the cache` against `removed <*> from cache`,
 * `order <*> was shipped` against `order <*> shipped`). Not a negation (`is not up`), nor a
 * preposition (`copied to` against `copied from` tells two events apart).
 */
const FUNCTION_WORDS = new Set(['the', 'a', 'an', 'is', 'was', 'are', 'were', 'been', 'has', 'have', 'had']);

/** Tokens an optional word needs on each side: the line around it is the evidence of one event. */
export const MIN_WORD_SIDE_TOKENS = 2;

/**
 * Whether tokens[at], with MIN_WORD_SIDE_TOKENS tokens on each side, is a word a format may print
 * or leave out: an adverb (`session <*> closed by peer` against `session <*> abruptly closed by
 * peer`, `backup of <*> successfully completed`), a lowercase word ending in `ly` or one of a few
 * others (`already`, `again`), or a function word (FUNCTION_WORDS). Any other word one line has
 * and the other not is as often the word that tells two events apart (`watch response` against
 * `watch control response` in etcd, `is up` against `is not up`), which no count of lines can
 * tell from an optional one.
 */
export function isOptionalWord(tokens: readonly string[], at: number): boolean {
  if (at < MIN_WORD_SIDE_TOKENS || at + MIN_WORD_SIDE_TOKENS >= tokens.length) return false;
  const word = tokens[at]!;
  return isAdverb(word) || FUNCTION_WORDS.has(word);
}

/** Whether a word is a function word as isOptionalWord takes one: never a value a line brings (drain.ts). */
export function isFunctionWord(word: string): boolean {
  return FUNCTION_WORDS.has(word);
}

/** Whether a token is an adverb as isOptionalWord takes one: two differ like values (drain.ts). */
export function isAdverb(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i);
    if (c < 97 || c > 122) return false;
  }
  if (PLAIN_ADVERBS.has(word)) return true;
  return word.length >= 5 && word.endsWith('ly') && !NOT_OPTIONAL.has(word);
}
