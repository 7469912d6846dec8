/**
 * Words with a digit shown as constants (`ssh2`, `utf8`, `PKCS8`) in a template's text, by
 * evidence, without touching grouping.
 *
 * Masking makes every word with a digit a value, since it is one as often as a constant (`eth1`
 * against `lo`, `IRQ9`): grouping on such words split events, and a replay with fresh numbers,
 * where no such spelling repeats, then left fewer templates than a plain pass (docs/log-mining.md).
 * So grouping stays on the masked tokens, and only the text a template shows is refined: a
 * wildcard that every line of the template filled with one and the same such word, over at least
 * CONSTANT_WORD_LINES lines, shows that word. Each wildcard is watched from the template's first
 * line; the first line that brings another word there (or that cannot be lined up with the
 * template: another token count) ends the watch for good. So a position's text goes at most
 * `<*>` → word → `<*>`, the id and the grouping never change, and a replay with fresh numbers
 * ends every watch it touches (the text moves toward `<*>`, no template is created).
 *
 * Memory is bounded per template: one word per watched wildcard, and only while no line differed.
 */
import { MAX_TOKENS, WILDCARD, maskLine, type MaskOptions } from './masking.js';

/** Lines that must agree before a watched wildcard shows its word: one line is no evidence. */
export const CONSTANT_WORD_LINES = 3;

/** Most places one template watches. */
const MAX_WATCHED = 30;

/** Longest word that may be shown (longer runs of letters and digits are ids). */
const MAX_WORD_CHARS = 32;

/** How a shown word stands in its wildcard: alone, or ending or opening a run of values (`52214 ssh2`). */
export const WHOLE = 0;
export const ENDS_RUN = 1;
export const OPENS_RUN = 2;

/** The wildcards of one template still filled by the same word in every line seen. */
export interface WordWatch {
  /** Token positions in the template, ascending. */
  positions: number[];
  /** Index of the word among the line's whitespace-separated tokens, per position. */
  raw: number[];
  /** The word each position held in every line so far. */
  words: string[];
  /** WHOLE, ENDS_RUN or OPENS_RUN per position: masking joins adjacent values into one wildcard. */
  forms: number[];
  /** Lines seen, all agreeing. */
  lines: number;
  /** The template's token count when the watch began: positions refer to it. */
  length: number;
  /** The line's whitespace-separated tokens: a line of another count does not line up. */
  rawLength: number;
}

/**
 * Whether a line's token may become a shown word: ASCII letters and digits only, opening with a
 * letter (`12ms` is a duration), holding a digit and a letter outside a–f (`a3f9` is hex, an id),
 * no number padded with zeros (`edge03`, `node001`: one of a numbered series of hosts).
 */
export function isConstantWord(word: string): boolean {
  const n = word.length;
  if (n < 2 || n > MAX_WORD_CHARS) return false;
  let digit = false;
  let name = false;
  for (let i = 0; i < n; i++) {
    const c = word.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (i === 0) return false;
      const before = word.charCodeAt(i - 1);
      if (c === 48 && !isDigitCode(before) && i + 1 < n && isDigitCode(word.charCodeAt(i + 1))) return false;
      digit = true;
      continue;
    }
    const l = c | 32;
    if (l < 97 || l > 122) return false;
    if (l > 102) name = true;
  }
  return digit && name;
}

function isDigitCode(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** Start and end offsets of the whitespace-separated tokens of text[start, end), at most `limit`. */
function rawTokens(text: string, start: number, end: number, limit: number): number[] | null {
  const bounds: number[] = [];
  let i = start;
  while (i < end) {
    while (i < end && isSpace(text.charCodeAt(i))) i++;
    if (i >= end) break;
    if (bounds.length === 2 * limit) return null;
    bounds.push(i);
    while (i < end && !isSpace(text.charCodeAt(i))) i++;
    bounds.push(i);
  }
  return bounds;
}

/**
 * The watch a template's first line starts: the constant-like words of the line that masking made
 * a bare wildcard of the template, alone or at either end of a run of values (`port 52214 ssh2`
 * masks as `port <*>`). Where a word stands among the masked tokens is told by masking the line up
 * to it (masking looks only left). None when the line does not line up with the template (a list
 * of fields joined into one value). Null when there is no such word.
 */
export function startWatch(template: readonly string[], text: string, start: number, end: number, mask: MaskOptions): WordWatch | null {
  // A line of MAX_TOKENS tokens or more ends in a token standing for the rest.
  const bounds = rawTokens(text, start, end, MAX_TOKENS - 1);
  if (bounds === null) return null;
  const n = bounds.length / 2;
  let watch: WordWatch | null = null;
  const counts = new Map<number, number>();
  // Masked tokens of the line's first q + 1 tokens.
  const upTo = (q: number): number => {
    if (q < 0) return 0;
    let c = counts.get(q);
    if (c === undefined) {
      c = maskLine(text.slice(bounds[0]!, bounds[2 * q + 1]!), mask).tokens.length;
      counts.set(q, c);
    }
    return c;
  };
  for (let q = 0; q < n; q++) {
    const from = bounds[2 * q]!;
    const to = bounds[2 * q + 1]!;
    if (to - from > MAX_WORD_CHARS) continue;
    const word = text.slice(from, to);
    if (!isConstantWord(word)) continue;
    // After a label (`networkConsumerIds: h2`) a word is the labelled value, as grouping takes it.
    if (q > 0 && text.charCodeAt(bounds[2 * q - 1]! - 1) === 58) continue;
    const at = upTo(q);
    const joinsPrevious = at === upTo(q - 1);
    const joinsNext = q + 1 < n && upTo(q + 1) === at;
    if (joinsPrevious && joinsNext) continue;
    const p = at - 1;
    if (template[p] !== WILDCARD) continue;
    // Places are bits of one number on every check (differingInText).
    if (watch !== null && watch.positions.length === MAX_WATCHED) break;
    // One word per wildcard: a run of values opening and ending in such words shows its first.
    if (watch !== null && watch.positions[watch.positions.length - 1] === p) continue;
    watch ??= { positions: [], raw: [], words: [], forms: [], lines: 1, length: template.length, rawLength: n };
    watch.positions.push(p);
    watch.raw.push(q);
    watch.words.push(word);
    watch.forms.push(joinsPrevious ? ENDS_RUN : joinsNext ? OPENS_RUN : WHOLE);
  }
  // Lined up with the template only when the whole line masks to as many tokens.
  if (watch === null || upTo(n - 1) !== template.length) return null;
  return watch;
}

/**
 * A restored watch (words shown, their places among a line's tokens not stored) bound to the
 * places the next line has them in, as its first line would have started it: a word the line has
 * elsewhere, or not at all, is dropped for good.
 */
export function rebindWatch(restored: WordWatch, template: readonly string[], text: string, start: number, end: number, mask: MaskOptions): WordWatch | null {
  const line = startWatch(template, text, start, end, mask);
  const kept: number[] = [];
  if (line !== null) {
    for (let k = 0; k < restored.positions.length; k++) {
      const j = line.positions.indexOf(restored.positions[k]!);
      if (j >= 0 && line.words[j] === restored.words[k] && line.forms[j] === restored.forms[k]) kept.push(j);
    }
  }
  if (kept.length === 0 || line === null) return null;
  restored.positions = kept.map((j) => line.positions[j]!);
  restored.raw = kept.map((j) => line.raw[j]!);
  restored.words = kept.map((j) => line.words[j]!);
  restored.forms = kept.map((j) => line.forms[j]!);
  restored.rawLength = line.rawLength;
  restored.lines++;
  return restored;
}

/**
 * Checks one more line of the template against its watch (the line text[start, end)); returns the
 * watch, or null once no position is left. A position whose word differs is dropped for good.
 */
export function watchLine(watch: WordWatch, template: readonly string[], text: string, start: number, end: number): WordWatch | null {
  if (template.length !== watch.length || watch.rawLength < 0) return null;
  return applyCheck(watch, differingInText(watch, text, start, end));
}

/**
 * As `watchLine`, over the line bytes[start, end) (UTF-8 or Latin-1: shown words are ASCII). A
 * restored watch not bound yet (rebindWatch) ends: a reader of bytes never restores.
 */
export function watchLineBytes(watch: WordWatch, template: readonly string[], bytes: Uint8Array, start: number, end: number): WordWatch | null {
  if (template.length !== watch.length || watch.rawLength < 0) return null;
  return applyCheck(watch, differingInBytes(watch, bytes, start, end));
}

/**
 * Bit k set when the line's word at the watch's k-th place differs; -1 when the line has another
 * number of tokens. (Two loops, text and bytes, without callbacks: this runs on cached lines.)
 */
function differingInText(watch: WordWatch, text: string, start: number, end: number): number {
  const raw = watch.raw;
  let index = 0;
  let next = 0;
  let differs = 0;
  let i = start;
  while (i < end) {
    while (i < end && isSpace(text.charCodeAt(i))) i++;
    if (i >= end) break;
    const from = i;
    while (i < end && !isSpace(text.charCodeAt(i))) i++;
    if (next < raw.length && raw[next] === index) {
      const word = watch.words[next]!;
      let same = i - from === word.length;
      for (let k = 0; same && k < word.length; k++) same = text.charCodeAt(from + k) === word.charCodeAt(k);
      if (!same) differs |= 1 << next;
      next++;
    }
    index++;
  }
  return index === watch.rawLength ? differs : -1;
}

function differingInBytes(watch: WordWatch, bytes: Uint8Array, start: number, end: number): number {
  const raw = watch.raw;
  let index = 0;
  let next = 0;
  let differs = 0;
  let i = start;
  while (i < end) {
    while (i < end && isSpace(bytes[i]!)) i++;
    if (i >= end) break;
    const from = i;
    while (i < end && !isSpace(bytes[i]!)) i++;
    if (next < raw.length && raw[next] === index) {
      const word = watch.words[next]!;
      let same = i - from === word.length;
      for (let k = 0; same && k < word.length; k++) same = bytes[from + k] === word.charCodeAt(k);
      if (!same) differs |= 1 << next;
      next++;
    }
    index++;
  }
  return index === watch.rawLength ? differs : -1;
}

/** The watch after a line whose differing places are `differs` (as differingInText gives them). */
function applyCheck(watch: WordWatch, differs: number): WordWatch | null {
  // A line of another token count (joined across lengths, or values run together otherwise) is
  // no evidence that the words stay: the watch ends rather than guess where they went.
  if (differs < 0) return null;
  if (differs !== 0) {
    const kept: number[] = [];
    for (let k = 0; k < watch.positions.length; k++) if ((differs & (1 << k)) === 0) kept.push(k);
    if (kept.length === 0) return null;
    watch.positions = kept.map((k) => watch.positions[k]!);
    watch.raw = kept.map((k) => watch.raw[k]!);
    watch.words = kept.map((k) => watch.words[k]!);
    watch.forms = kept.map((k) => watch.forms[k]!);
  }
  watch.lines++;
  return watch;
}

/**
 * How many words a template with this watch shows: the text changes exactly when this number does
 * (words appear together once enough lines agree, and only drop after), so a cache of the text
 * may key on it.
 */
export function shownCount(watch: WordWatch | null): number {
  return watch === null || watch.lines < CONSTANT_WORD_LINES ? 0 : watch.positions.length;
}

/**
 * The text pieces a template shows, one per token: its tokens, with the words of a watch that has
 * enough lines (`ssh2`, or `<*> ssh2` where the word ended a run of values).
 */
export function shownTokens(tokens: readonly string[], watch: WordWatch | null): readonly string[] {
  if (watch === null || watch.lines < CONSTANT_WORD_LINES || watch.length !== tokens.length) return tokens;
  const shown = tokens.slice();
  for (let k = 0; k < watch.positions.length; k++) {
    const word = watch.words[k]!;
    const form = watch.forms[k]!;
    shown[watch.positions[k]!] = form === WHOLE ? word : form === ENDS_RUN ? `${WILDCARD} ${word}` : `${word} ${WILDCARD}`;
  }
  return shown;
}

/** Whether a stored token is a shown word: one masking would make a bare wildcard. */
function isShownWord(token: string): boolean {
  if (!isConstantWord(token)) return false;
  const masked = maskLine(token, { keepHttpStatus: false }).tokens;
  return masked.length === 1 && masked[0] === WILDCARD;
}

/**
 * A stored template's text (split at spaces) back as the tokens lines are compared with, with the
 * watch that showed its words, so a restored template shows what it showed and goes on checking
 * them. A template shows words only while it keeps the token count of its first line, so the
 * stored signature tells a word that stood alone (`for <*> ssh2`: a name, then the word) from one
 * that ended or opened a run of values (`port <*> ssh2`). Positions in raw tokens are not stored:
 * the watch restarts its check of them with the next line (its words stay shown meanwhile).
 */
export function unshowTokens(stored: readonly string[], signatureLength: number): { tokens: string[]; watch: WordWatch | null } {
  const shown: number[] = [];
  for (let p = 0; p < stored.length; p++) if (isShownWord(stored[p]!)) shown.push(p);
  if (shown.length === 0) return { tokens: stored.slice(), watch: null };
  // Words beside a wildcard that joined it: as many as the text has tokens beyond the signature.
  let joins = stored.length - signatureLength;
  const tokens: string[] = [];
  const positions: number[] = [];
  const words: string[] = [];
  const forms: number[] = [];
  for (let p = 0; p < stored.length; p++) {
    const token = stored[p]!;
    if (!shown.includes(p)) {
      tokens.push(token);
      continue;
    }
    positions.push(tokens.length);
    words.push(token);
    if (joins > 0 && tokens.length > 0 && tokens[tokens.length - 1] === WILDCARD && !positions.slice(0, -1).includes(tokens.length - 1)) {
      positions[positions.length - 1] = tokens.length - 1;
      forms.push(ENDS_RUN);
      joins--;
    } else if (joins > 0 && stored[p + 1] === WILDCARD) {
      forms.push(OPENS_RUN);
      tokens.push(WILDCARD);
      p++;
      joins--;
    } else {
      forms.push(WHOLE);
      tokens.push(WILDCARD);
    }
  }
  // A text that does not line up with its signature so is restored with its words as wildcards.
  if (joins !== 0 || tokens.length !== signatureLength) return { tokens: stored.map((t) => (isShownWord(t) ? WILDCARD : t)), watch: null };
  return { tokens, watch: { positions, raw: [], words, forms, lines: CONSTANT_WORD_LINES, length: tokens.length, rawLength: -1 } };
}
