/**
 * Another phrase in the same place. In a crowded group (drain.ts) a word that differs between a
 * line and a template may become a variable, for want of room to keep every event apart. Two
 * adjacent plain words that both differ, with a word the two share after them, are not such a
 * value: `client sent too large header,` against `client sent empty :method header,` are two
 * statements of one program (nginx), told apart by a phrase. A value one statement prints takes
 * one token there; a value of several words (an error's text) ends its clause or sits in quotes
 * (`socket certificate has expired` against `socket Resource temporarily unavailable`,
 * `"error": "timed out"`), and neither has a shared word after it within the line's core.
 */
import { WILDCARD } from './masking.js';
import { isNameLike } from './name-like.js';
import type { ValueWords } from './value-words.js';

/** `"`, `'`, `(`, `[`, `{`, `=`: a token holding one is a quote, a group or a field, not a plain word. */
function isFraming(c: number): boolean {
  return c === 34 || c === 39 || c === 40 || c === 91 || c === 123 || c === 61;
}

/**
 * Whether a token is a plain word of a message: no value in it, not a name (name-like.ts), not a
 * word the service learned as a value (value-words.ts), no quote, group or field.
 */
export function isPhraseWord(token: string, values: ValueWords | null): boolean {
  if (token.includes(WILDCARD) || isNameLike(token)) return false;
  if (values !== null && values.has(token)) return false;
  for (let i = 0; i < token.length; i++) if (isFraming(token.charCodeAt(i))) return false;
  return true;
}
