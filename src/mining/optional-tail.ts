/**
 * Optional trailing remarks: `Connection closed by <*> port <*> [preauth]`, `Task <*> failed
 * (attempt <*>) (will retry)`. Such a remark is a bracketed group of a few whitespace tokens at the
 * end of a line; lines of one event carry it or not, so it must neither change the leaf a line
 * goes to (the tree keys on the token count before it) nor, alone, split the event. The masked
 * tokens stay as they are; this only says where a line's core ends.
 */

/** A remark is short; a longer bracketed run (`[HRESULT = <*> - CBS_E_…]`) is part of the message. */
export const MAX_REMARK_TOKENS = 4;

/** The core keeps at least this many tokens, so a remark never stands for most of a line. */
export const MIN_CORE_TOKENS = 2;

const OPEN_PAREN = 40;
const CLOSE_PAREN = 41;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

/**
 * Number of leading tokens before the trailing remarks (the whole length when there are none):
 * each remark is a run of at most MAX_REMARK_TOKENS tokens that opens with `(` or `[` at the start
 * of its first token and closes, balanced, at the end of the line (or of the next remark).
 */
export function coreLength(tokens: readonly string[]): number {
  let end = tokens.length;
  while (end > MIN_CORE_TOKENS) {
    const start = remarkStart(tokens, end);
    if (start < 0) break;
    end = start;
  }
  return end;
}

/** First token of a bracketed group ending at tokens[end - 1], or -1 when there is none. */
function remarkStart(tokens: readonly string[], end: number): number {
  // Callers pass end >= 1 inside tokens.
  const last = tokens[end - 1]!;
  const close = last.charCodeAt(last.length - 1);
  if (close !== CLOSE_PAREN && close !== CLOSE_BRACKET) return -1;
  const open = close === CLOSE_PAREN ? OPEN_PAREN : OPEN_BRACKET;
  const lowest = Math.max(MIN_CORE_TOKENS, end - MAX_REMARK_TOKENS);
  let depth = 0;
  for (let i = end - 1; i >= lowest; i--) {
    const t = tokens[i]!;
    for (let j = t.length - 1; j >= 0; j--) {
      const c = t.charCodeAt(j);
      if (c === close) depth++;
      else if (c === open) {
        depth--;
        // The group must open at the start of a token: `LOCAL(0)` is a word, not a remark.
        if (depth === 0) return j === 0 ? i : -1;
        if (depth < 0) return -1;
      }
    }
  }
  return -1;
}

/**
 * Whether the remarks of `a` and `b` (their tokens from `core` on) differ only by remarks one of
 * them lacks: one run of remarks starts or ends the other (`(attempt <*>)` and `(attempt <*>)
 * (will retry)`, or none and `[preauth]`). Two different remarks in the same place (`(usable)`,
 * `(reserved)`) differ in a word, which is not an optional part.
 */
export function remarksNest(a: readonly string[], b: readonly string[], core: number): boolean {
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  const n = short.length - core;
  const shift = long.length - short.length;
  let prefix = true;
  let suffix = true;
  for (let i = 0; i < n && (prefix || suffix); i++) {
    const s = short[core + i];
    if (s !== long[core + i]) prefix = false;
    if (s !== long[core + shift + i]) suffix = false;
  }
  return prefix || suffix;
}
