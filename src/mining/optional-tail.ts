/**
 * Optional trailing remarks: `Connection closed by <*> port <*> [preauth]`, `Task <*> failed
 * (attempt <*>) (will retry)`. Such a remark is a bracketed group of a few whitespace tokens at the
 * end of a line; lines of one event carry it or not, so it must neither change the leaf a line
 * goes to (the tree keys on the token count before it) nor, alone, split the event. The masked
 * tokens stay as they are; this only says where a line's core ends. A line without remarks may
 * end in a labelled tail instead (the text after `error:`, below), which likewise stays out of
 * the core.
 */
import { WILDCARD } from './masking.js';

/** A remark is short; a longer bracketed run (`[HRESULT = <*> - CBS_E_…]`) is part of the message. */
export const MAX_REMARK_TOKENS = 4;

/** The core keeps at least this many tokens, so a remark never stands for most of a line. */
export const MIN_CORE_TOKENS = 2;

const OPEN_PAREN = 40;
const CLOSE_PAREN = 41;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const COLON = 58;
/** `_` with bit 5 set, as the letters are lowered. */
const UNDERSCORE_LOWERED = 95 | 32;
const LABELLING_VALUE = `${WILDCARD}:`;
/**
 * A name or value in brackets before a colon labels what follows as a bare value does (`to
 * account [audit.log]: Permission denied`): one token opening with `[`, closing with `]:`.
 */
function isBracketedLabel(token: string): boolean {
  return (
    token.length > 3 && token.charCodeAt(0) === OPEN_BRACKET && token.endsWith(']:') && token.indexOf('[', 1) < 0 && token.indexOf(']') === token.length - 2
  );
}

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
  return end === tokens.length ? labelTailStart(tokens) : end;
}

/**
 * A labelled tail is the text after a label, a token ending in `:` (`error: Connection reset by
 * peer`, `failed to resolve hostname <*> to IP: too many open files`), that ends a line of no
 * trailing remarks, of at most MAX_LABEL_TAIL_TOKENS tokens. What a label introduces is the value
 * it labels, and an error's text has as many words as it has: each text must not make a token
 * count, and so a group, of its own.
 */
export const MAX_LABEL_TAIL_TOKENS = 5;

/**
 * Before a labelled tail, at least this many tokens: with fewer (`DBus support enabled: <text>`,
 * `<*> OPTIONS IMPORT: <text>`) the text after the label is as often the message itself.
 */
export const MIN_LABEL_CORE_TOKENS = 4;

/**
 * Labels naming a failure (`Error:`, `failed:`, `reason:`): what follows is an error's text
 * however few tokens come before (`Error: too many open files`, `<*> failed: EOF`), unlike a
 * label of the message's own words (`DBus support enabled: <text>`).
 */
const ERROR_LABEL_WORDS = new Set(['error', 'err', 'failed', 'failure', 'exception', 'reason']);

/** Whether `token` is a word naming a failure before a closing `:` (ERROR_LABEL_WORDS). */
export function isErrorLabel(token: string | undefined): boolean {
  if (token === undefined) return false;
  const n = token.length;
  if (n < 4 || n > 10 || token.charCodeAt(n - 1) !== COLON) return false;
  return ERROR_LABEL_WORDS.has(token.slice(0, n - 1).toLowerCase());
}

/**
 * Whether tokens[at] labels an error's text: a label naming a failure, or any word label in a
 * line whose first word names one (`Error in timer: <text>`).
 */
export function labelsError(tokens: readonly string[], at: number): boolean {
  const token = tokens[at];
  if (isErrorLabel(token)) return true;
  const first = tokens[0]!;
  return (
    at >= 2 && token !== undefined && isLabel(token) && !token.includes(WILDCARD) && ERROR_LABEL_WORDS.has(first.toLowerCase()) && isShortWord(tokens[at - 1]!)
  );
}

/**
 * A lowercase word of at most 4 letters (`in`, `on`, `for`, `with`): the label after it names the
 * part that failed (`Error in timer:`); after a longer word it is as often a value the statement
 * prints (`Error downloading worker:`, `Error downloading pool-1:`).
 */
function isShortWord(token: string): boolean {
  if (token.length > 4) return false;
  for (let i = 0; i < token.length; i++) {
    const c = token.charCodeAt(i);
    if (c < 97 || c > 122) return false;
  }
  return true;
}

/** Start of the line's labelled tail, or its length when it has none. */
function labelTailStart(tokens: readonly string[]): number {
  const n = tokens.length;
  const lowest = Math.max(MIN_LABEL_CORE_TOKENS, n - MAX_LABEL_TAIL_TOKENS);
  // An error's label may stand earlier, down to the first token (isErrorLabel).
  const lowestForError = Math.max(1, n - MAX_LABEL_TAIL_TOKENS);
  for (let i = n - 1; i >= lowestForError; i--) {
    const t = tokens[i]!;
    // A field (`term=<*>`) makes a structured tail, not a text: its keys name the event. A text
    // of several words holds words only: `loaded: 1 with <*> records` is a sentence of the
    // message with a value in it, not an error's text.
    if (isField(t) || (i < n - 1 && t.includes(WILDCARD)) || (i === n - 2 && tokens[n - 1]!.includes(WILDCARD))) return n;
    if (i < lowest) {
      // The first token labelling the line's text is the error's label, not a program's name. A
      // quoted text (`failed: "i/o timeout"`) is one value already, whose quotes the template keeps.
      if (labelsError(tokens, i - 1) && !isQuoted(tokens[i]!)) return i === 1 || !endsWithColon(tokens[0]!) ? i : n;
      continue;
    }
    if (isLabel(tokens[i - 1]!) || isLoneColonLabel(tokens, i - 1) || isRemarkLabel(tokens, i - 1))
      return endsWithColon(tokens[0]!) && !labelsAfterProgram(tokens, i - 1) ? n : i;
  }
  return n;
}

/** Whether a token opens with a quote. */
function isQuoted(token: string): boolean {
  const c = token.charCodeAt(0);
  return c === 34 || c === 39;
}

/** A `key=value` field: a key of letters, digits, `_`, `-` or `.` before the first `=`. */
export function isField(token: string): boolean {
  const eq = token.indexOf('=');
  if (eq <= 0) return false;
  for (let i = 0; i < eq; i++) {
    const c = token.charCodeAt(i);
    if (!((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 45 || c === 46)) return false;
  }
  return true;
}

/** A word of at least one character before a closing `:` (not `::`, not a lone `:`). */
export function isLabel(token: string): boolean {
  const n = token.length;
  if (n < 2 || token.charCodeAt(n - 1) !== COLON) return false;
  // A word or a value before the colon: not `::`, nor a group, a quote or fields (`(unit=<*>
  // bit=<*>):`, `<cfg.main>:`), which close a part of the message rather than name what follows;
  // but a name or value alone in brackets does (isBracketedLabel).
  const before = token.charCodeAt(n - 2) | 32;
  const word = (before >= 97 && before <= 122) || (before >= 48 && before <= 57) || before === UNDERSCORE_LOWERED;
  // A value labels what follows as a word does (`request from <*>: EOF`).
  return (word || token.endsWith(LABELLING_VALUE) || isBracketedLabel(token)) && !token.includes('=');
}

/**
 * A first token ending in `:` names the program or part that logs (`ciod:`, `plugin/file:`,
 * `raft:`); its lines' later labels mostly end clauses of its own message format, whose texts the
 * LogHub labels keep apart (`ciod: LOGIN chdir(<*>) failed: No such file or directory` and
 * `… failed: Input/output error` are two events in BGL), unless labelsAfterProgram says otherwise.
 */
function endsWithColon(token: string): boolean {
  return token.length > 1 && token.charCodeAt(token.length - 1) === COLON;
}

/**
 * After a program's name, a label needs this many tokens up to it (the name and the label
 * included): with fewer (`ciod: LOGIN chdir(<*>) failed: <text>`) the label ends a short clause
 * of the program's own format.
 */
export const MIN_PROGRAM_LABEL_TOKENS = 6;

/**
 * Whether tokens[at], in a line opening with a program's name, labels a tail that varies: a word
 * of letters before its colon (`lookup error:`, `notifies:`), not a value (`from file <*>:`, whose
 * texts the LogHub BGL labels keep apart) nor a name (`for printer.lan:`), after a clause of
 * MIN_PROGRAM_LABEL_TOKENS tokens.
 */
export function labelsAfterProgram(tokens: readonly string[], at: number): boolean {
  const token = tokens[at];
  if (token === undefined || at + 1 < MIN_PROGRAM_LABEL_TOKENS || token.length < 2) return false;
  for (let i = 0; i < token.length - 1; i++) {
    const c = token.charCodeAt(i) | 32;
    if (c < 97 || c > 122) return false;
  }
  return true;
}

/**
 * A colon standing alone after a word or a value labels the text after it as a colon glued to
 * the word does (C's `"Could not open %s : %s"` with `strerror(errno)`).
 */
function isLoneColonLabel(tokens: readonly string[], at: number): boolean {
  if (tokens[at] !== ':' || at < 1) return false;
  // Several lone colons make a layout of fields (`FAILED : bglio<*> : block_id : location`).
  for (let i = 0; i < tokens.length; i++) if (i !== at && tokens[i] === ':') return false;
  const before = tokens[at - 1]!;
  const c = before.charCodeAt(before.length - 1) | 32;
  return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || before.endsWith(WILDCARD);
}

/** Whether the tokens from `core` on are a labelled tail (rather than bracketed remarks). */
export function isLabelTail(tokens: readonly string[], core: number): boolean {
  return (
    core < tokens.length &&
    (isLabel(tokens[core - 1] ?? '') || isLoneColonLabel(tokens, core - 1) || isRemarkLabel(tokens, core - 1)) &&
    remarkStart(tokens, tokens.length) < 0 &&
    labelTailStart(tokens) === core
  );
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

/**
 * Whether tokens[at] closes a parenthesized remark holding a value with a word and a colon
 * (`Retrying <*> (failed <*> times): timed out`): the remark labels what follows as a word before
 * a colon does. A remark of words only (`(in server root dir main):`) is a part of the message.
 */
function isRemarkLabel(tokens: readonly string[], at: number): boolean {
  const token = tokens[at];
  if (token === undefined) return false;
  const n = token.length;
  if (n < 4 || token.charCodeAt(n - 1) !== COLON || token.charCodeAt(n - 2) !== CLOSE_PAREN || token.includes('(') || token.includes('=')) return false;
  const c = token.charCodeAt(n - 3) | 32;
  if (c < 97 || c > 122) return false;
  let value = false;
  for (let i = at - 1; i >= Math.max(0, at - MAX_REMARK_TOKENS); i--) {
    const t = tokens[i]!;
    if (t.includes(WILDCARD)) value = true;
    if (t.charCodeAt(0) === OPEN_PAREN) return value && !t.includes(')');
    if (t.includes('(') || t.includes(')')) return false;
  }
  return false;
}
