/**
 * The object of a message that opens with a verb: `Disconnect primary because the node does not
 * hold any slot`, `Disconnect users because …`. A statement that starts with a capitalized verb
 * and goes on for a sentence prints what it acts on right after the verb; the sentence after
 * the object is the message's own. So the word right after such an opening varies like a value
 * when a preposition or conjunction follows it (`because`, `from`, `for`), so that it is one word
 * standing alone as the object, and the line is long enough to tell the event by the rest (the
 * caller compares the rest word by word, as for any other position). Without that word after it
 * the second word is as often the first of a longer object (`Adding stream export <*>` and
 * `Adding service export <*>` are two events).
 */

import { isVerbForm } from './first-word.js';

/** Words that end an object and open what the sentence says of it. */
const AFTER_OBJECT: ReadonlySet<string> = new Set([
  'because',
  'from',
  'to',
  'for',
  'with',
  'on',
  'in',
  'at',
  'of',
  'after',
  'as',
  'via',
  'into',
  'since',
  'when',
  'while',
  'by',
]);

/** Tokens a line needs for its second word to be taken as the verb's object. */
export const MIN_VERB_LINE_TOKENS = 6;

/**
 * Whether position 1 of two lines of `tokens` tokens, both opening with `first` and with `next`
 * after it, holds the object of a verb: `next` is a preposition or conjunction, `first` is a capitalized word of letters only, and the two words there are plain
 * lowercase words (names are written so; a capitalized or punctuated word is as often the
 * message's own), neither a verb form: then the first word was a noun and the second says what
 * happened to it (`Cache warmed for …`, `Cache cooled for …`).
 */
export function isVerbObject(first: string, a: string, b: string, next: string | undefined, tokens: number): boolean {
  return (
    tokens >= MIN_VERB_LINE_TOKENS &&
    next !== undefined &&
    AFTER_OBJECT.has(next) &&
    isCapitalizedWord(first) &&
    isLowerWord(a) &&
    isLowerWord(b) &&
    !isVerbForm(a) &&
    !isVerbForm(b)
  );
}

function isCapitalizedWord(token: string): boolean {
  const n = token.length;
  if (n < 3) return false;
  const c0 = token.charCodeAt(0);
  if (c0 < 65 || c0 > 90) return false;
  for (let i = 1; i < n; i++) {
    const c = token.charCodeAt(i);
    if (c < 97 || c > 122) return false;
  }
  return true;
}

function isLowerWord(token: string): boolean {
  const n = token.length;
  if (n < 2) return false;
  for (let i = 0; i < n; i++) {
    const c = token.charCodeAt(i);
    if (c < 97 || c > 122) return false;
  }
  return true;
}
