/**
 * A variable word in the first position: `alice logged out`, `ivan: session started on tty 3`,
 * `gateway reports backend db-primary healthy`. The tree keys on the first word, so each value
 * would start a leaf of its own and, alone there, a template of its own. A line whose first-word
 * leaf has no template for it, and which equals a template of another first word in every other
 * position, is taken as the same event with a variable first word. Two events told apart by their
 * first word alone ("Starting x" / "Stopping x") are rarer than that in logs; a rest of at least
 * MIN_LITERAL_REST literal words keeps short lines from merging on too little evidence.
 */
import { WILDCARD, isPinnedToken } from './masking.js';
import { isNameLike } from './name-like.js';
import { isHttpMethod } from './http-method.js';
import type { ValueWords } from './value-words.js';

/** Literal words (no wildcard) the rest of the line must share with the template. */
export const MIN_LITERAL_REST = 3;

/**
 * Whether `template` and `line` (same core length `core`) differ in their first word and are
 * equal everywhere else (a template wildcard standing for any unpinned token, a compound name
 * for another token), with at least MIN_LITERAL_REST literal words equal.
 */
export function differsInFirstWordOnly(template: readonly string[], line: readonly string[], core: number, values: ValueWords | null = null): boolean {
  const t0 = template[0];
  const l0 = line[0];
  if (t0 === undefined || l0 === undefined || t0 === l0) return false;
  // The template's first word may already be a variable (a name-like first word keys as one).
  if ((t0 !== WILDCARD && t0.includes(WILDCARD)) || isPinnedToken(t0)) return false;
  // A capitalized first word opens a sentence (`Starting …`, `Ending …`, `DHCPACK …`): a word of
  // the message. Names of users, hosts and programs are mostly written in lower case.
  if (t0 !== WILDCARD && !startsLower(afterQuotedKey(t0)) && !(isHttpMethod(t0) && isHttpMethod(l0))) return false;
  // A verb form opens a sentence too (`failed to …`, `starting …`, `stopped …`): what happened.
  if (isVerbForm(t0) || isVerbForm(l0)) return false;
  return fitsButFirst(template, line, core, values);
}

/**
 * Whether a line whose first word is a plain lowercase word (`ivan:`, `gateway`) fits `template`
 * but for that first word: equal in every other position, a template wildcard standing for any
 * unpinned token and a compound name for another token, with at least MIN_LITERAL_REST literal
 * words equal. The template's first word is not looked at.
 */
export function fitsButFirst(template: readonly string[], line: readonly string[], core: number, values: ValueWords | null = null): boolean {
  const n = line.length;
  if (template.length !== n || n < 2 || core < 2) return false;
  const l0 = line[0]!;
  if (l0.includes(WILDCARD) || !(startsLower(afterQuotedKey(l0)) || isHttpMethod(l0)) || isVerbForm(l0)) return false;
  let literal = 0;
  for (let i = 1; i < n; i++) {
    const t = template[i]!;
    const l = line[i]!;
    if (t === l) {
      if (!t.includes(WILDCARD)) literal++;
    } else if (isPinnedToken(t) || isPinnedToken(l)) {
      return false;
    } else if (t !== WILDCARD && !isNameLike(t) && !isNameLike(l)) {
      // Names vary like values (drain.ts similarity); a plain word must be equal.
      return false;
    }
  }
  // A first word the service learned as a value (value-words.ts) needs less evidence.
  return literal >= (values !== null && (values.has(l0) || values.has(template[0])) ? MIN_LITERAL_REST - 1 : MIN_LITERAL_REST);
}

/**
 * The token after a key's opening quote (`Scrape` of `msg="Scrape`): a structured line's message
 * opens there, and a capitalized word there opens a sentence as it does first in a plain line.
 */
function afterQuotedKey(token: string): string {
  const eq = token.indexOf('=');
  if (eq <= 0) return token;
  const q = token.charCodeAt(eq + 1);
  if (q !== 34 && q !== 39) return token;
  for (let i = 0; i < eq; i++) {
    const c = token.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 45)) return token;
  }
  return token.slice(eq + 2);
}

function startsLower(token: string): boolean {
  const c = token.charCodeAt(0);
  return c >= 97 && c <= 122;
}

/** A word ending like a verb form, `-ed` or `-ing` (before a trailing `:` or `,`), of 4+ letters. */
export function isVerbForm(token: string): boolean {
  let n = token.length;
  const last = token.charCodeAt(n - 1);
  if (last === 58 || last === 44) n--;
  if (n < 4) return false;
  const end = token.slice(0, n);
  return end.endsWith('ed') || end.endsWith('ing');
}
