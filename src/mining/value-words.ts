/**
 * Words a service's templates have shown to be values: a plain word that a template's bare
 * wildcard took, or that was replaced by one. Logs print a few names again and again (a role, a
 * queue, a mode: `users`, `primary`, `nobody`), each in several events; once one event has shown
 * such a word to vary, the word is taken as a value in any position of the service's other
 * templates too, rather than as a word of their message, so an event whose first lines all
 * carried that name does not keep a template of its own for it. Bounded: at most
 * MAX_VALUE_WORDS words per service, after which no more are learned (the set stays as it is,
 * so mining stays deterministic).
 */
import { WILDCARD } from './masking.js';

export const MAX_VALUE_WORDS = 10_000;
/** Longer tokens are sentences or ids, not the short names this is for. */
const MAX_WORD_LENGTH = 40;

/** A value text has at most this many words (`context deadline exceeded`, `No such file or directory`). */
export const MAX_TEXT_WORDS = 6;

export class ValueWords {
  private readonly words = new Set<string>();
  /** Texts of several words, joined by one space (below). */
  private readonly texts = new Set<string>();

  has(word: string | undefined): boolean {
    return word !== undefined && this.words.has(word);
  }

  /**
   * Whether tokens[from, to) is a value: one learned word, or a learned text of several words
   * (an error's text a labelled tail of another event showed to vary: `connection refused`).
   */
  hasText(tokens: readonly string[], from: number, to: number): boolean {
    if (to - from === 1) return this.has(tokens[from]);
    if (to - from < 2 || to - from > MAX_TEXT_WORDS || this.texts.size === 0) return false;
    return this.texts.has(tokens.slice(from, to).join(' '));
  }

  /**
   * Learns tokens[from, to), 2 to MAX_TEXT_WORDS words of letters (with `'`, `/`, `-`, `.`, `,`
   * inside or after), as a value text when there is room (texts and words share MAX_VALUE_WORDS).
   */
  learnText(tokens: readonly string[], from: number, to: number): void {
    if (to - from < 2 || to - from > MAX_TEXT_WORDS || this.words.size + this.texts.size >= MAX_VALUE_WORDS) return;
    for (let i = from; i < to; i++) if (!isTextWord(tokens[i]!)) return;
    this.texts.add(tokens.slice(from, to).join(' '));
  }

  /** Learns `word` when it is a plain word (letters, digits, `_`, `-`, `.`) and there is room. */
  learn(word: string): void {
    if (this.words.size + this.texts.size >= MAX_VALUE_WORDS || !isPlainWord(word)) return;
    this.words.add(word);
  }

  get size(): number {
    return this.words.size;
  }
}

/** A word of 2 to MAX_WORD_LENGTH letters, digits, `_`, `-` or `.`, starting with a letter. */
export function isPlainWord(word: string): boolean {
  const n = word.length;
  if (n < 2 || n > MAX_WORD_LENGTH || word.includes(WILDCARD)) return false;
  for (let i = 0; i < n; i++) {
    const c = word.charCodeAt(i);
    const letter = (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
    if (i === 0 ? !letter : !(letter || (c >= 48 && c <= 57) || c === 95 || c === 45 || c === 46)) return false;
  }
  return true;
}

/** A word of a text: a letter first, then letters, digits or `'`, `/`, `-`, `.`, `,` (`i/o`, `can't`). */
function isTextWord(word: string): boolean {
  const n = word.length;
  if (n === 0 || n > MAX_WORD_LENGTH) return false;
  for (let i = 0; i < n; i++) {
    const c = word.charCodeAt(i);
    const letter = (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
    if (i === 0 ? !letter : !(letter || (c >= 48 && c <= 57) || c === 39 || c === 47 || c === 45 || c === 46 || c === 44)) return false;
  }
  return true;
}
