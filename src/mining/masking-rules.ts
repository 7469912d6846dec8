/**
 * The masking rules of one segment (a piece of a whitespace token between delimiters) and the
 * character classes the scanner in masking.ts uses. See masking.ts for the rules in prose; any
 * change here must bump MASKING_VERSION there, and be made in assembly/fingerprint.ts too (the
 * WebAssembly copy of the scanner that `svc templates` runs; src/templates/wasm-fingerprint.test.ts
 * fails until it is).
 */

/** Characters that split a whitespace token into segments (kept literally in templates). */
export const SEGMENT_DELIMITERS = '=:,()[]{}"\';@|<>';

const IS_DELIMITER = new Uint8Array(128);
for (const ch of SEGMENT_DELIMITERS) IS_DELIMITER[ch.charCodeAt(0)] = 1;

/** `HTTP/1.1`, `HTTP/1.0"`, `"HTTP/2` and the like. */
export function isHttpVersionToken(line: string, start: number, end: number): boolean {
  let i = start;
  if (line.charCodeAt(i) === 34) i++;
  if (!line.startsWith('HTTP/', i)) return false;
  i += 5;
  if (i >= end || !isDigit(line.charCodeAt(i))) return false;
  i++;
  if (i < end && line.charCodeAt(i) === 46) {
    i++;
    if (i >= end || !isDigit(line.charCodeAt(i))) return false;
    i++;
  }
  if (i < end && line.charCodeAt(i) === 34) i++;
  return i === end;
}

/** Words grouped by their first character, so a check compares in place without slicing. */
function byFirstChar(words: readonly string[]): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const w of words) {
    const k = w.charCodeAt(0);
    const list = out.get(k);
    if (list === undefined) out.set(k, [w]);
    else list.push(w);
  }
  return out;
}

function isOneOf(words: Map<number, string[]>, line: string, start: number, end: number): boolean {
  const list = words.get(line.charCodeAt(start));
  if (list === undefined) return false;
  for (const w of list) if (w.length === end - start && line.startsWith(w, start)) return true;
  return false;
}

const DATE_NAMES = byFirstChar([
  'Mon',
  'Tue',
  'Wed',
  'Thu',
  'Fri',
  'Sat',
  'Sun',
  'Jan',
  'Feb',
  'Mar',
  'Apr',
  'May',
  'Jun',
  'Jul',
  'Aug',
  'Sep',
  'Oct',
  'Nov',
  'Dec',
]);

/** Abbreviated weekday and month names: parts of timestamps, hence variables. */
function isDateName(line: string, start: number): boolean {
  return isOneOf(DATE_NAMES, line, start, start + 3);
}

const UNIT_NAMES = byFirstChar(['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'KiB', 'MiB', 'GiB', 'TiB']);

/** Size and duration units (only masked right after a masked number). */
function isUnitName(line: string, start: number, end: number): boolean {
  return isOneOf(UNIT_NAMES, line, start, end);
}

/** Lowercase dotted name with at least three labels ending in a 2-3 letter label: a host name. */
function isHostName(line: string, start: number, end: number): boolean {
  let k = end - 1;
  while (k > start && line.charCodeAt(k) !== 46) k--;
  const tld = end - k - 1;
  if (tld < 2 || tld > 3) return false;
  for (let j = k + 1; j < end; j++) {
    const c = line.charCodeAt(j);
    if (c < 97 || c > 122) return false;
  }
  return true;
}

/** An HTTP status code: exactly three digits, 100..599. */
export function isStatusToken(line: string, start: number, end: number): boolean {
  if (end - start !== 3) return false;
  const a = line.charCodeAt(start);
  return a >= 49 && a <= 53 && isDigit(line.charCodeAt(start + 1)) && isDigit(line.charCodeAt(start + 2));
}

export function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isHexLetter(c: number): boolean {
  return (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

/** Character classes, one table lookup per character (non-ASCII: an ordinary non-hex letter). */
export const C_SPACE = 1;
export const C_DELIM = 2;
export const C_DIGIT = 4;
export const C_NONHEX = 8;
export const C_SLASH = 16;
export const C_BACKSLASH = 32;
export const C_DOT = 64;
export const C_UPPER = 128;
export const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  let f = 0;
  if (c === 32 || (c >= 9 && c <= 13)) f = C_SPACE;
  else if (IS_DELIMITER[c] === 1) f = C_DELIM;
  else if (isDigit(c)) f = C_DIGIT;
  else {
    if (!isHexLetter(c)) f |= C_NONHEX;
    if (c === 47) f |= C_SLASH;
    if (c === 92) f |= C_BACKSLASH;
    if (c === 46) f |= C_DOT;
    if (c >= 65 && c <= 90) f |= C_UPPER;
  }
  CLASS[c] = f;
}

/** CLASS for every UTF-16 code unit (beyond ASCII: an ordinary non-hex letter), one lookup without a range check. */
export const CLASS_UTF16 = new Uint8Array(65536).fill(C_NONHEX);
CLASS_UTF16.set(CLASS);

function countChar(line: string, start: number, end: number, code: number): number {
  let n = 0;
  for (let k = start; k < end; k++) if (line.charCodeAt(k) === code) n++;
  return n;
}

function isLetter(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90);
}

/**
 * How many leading characters of a masked segment stay literal: the leading slashes of a number
 * (`/10.0.0.1`; a path stays whole), and a name of letters joined to the value by `_`, `-` or `.`
 * (`blk_-42`, `node-17`, `core.3051`, `DFSClient_NONMAPREDUCE_-9_1`), so that the template reads
 * like the line. A name must hold a letter outside a-f, so hex ids (`deadbeef_12`) stay whole.
 */
export function literalPrefixLength(line: string, start: number, end: number): number {
  // Most values start with a digit: nothing to keep.
  if (isDigit(line.charCodeAt(start))) return 0;
  let i = start;
  while (i < end && line.charCodeAt(i) === 47) i++;
  if (i > start) return i < end && isDigit(line.charCodeAt(i)) ? i - start : 0;
  let keep = 0;
  for (;;) {
    let j = i;
    let nonHex = false;
    while (j < end) {
      const c = line.charCodeAt(j);
      if (!isLetter(c)) break;
      if (!isHexLetter(c)) nonHex = true;
      j++;
    }
    const sep = j < end ? line.charCodeAt(j) : 0;
    if (j - i < 2 || !nonHex || (sep !== 95 && sep !== 45 && sep !== 46) || j + 1 >= end) return keep;
    keep = j + 1 - start;
    i = j + 1;
  }
}

/**
 * A name from code with a digit inside (`jk2_init`, `utf8_decode`, `sha256_sum`): a word of at
 * least two letters holding one outside a-f, then letters, digits and `_`, and a last `_` part of
 * at least two letters. Values end in their digits (`blk_-42`, `attempt_1445_m_0`) or are hex.
 */
function isCodeName(line: string, start: number, end: number): boolean {
  let i = start;
  let nonHex = false;
  while (i < end && isLetter(line.charCodeAt(i))) {
    if (!isHexLetter(line.charCodeAt(i))) nonHex = true;
    i++;
  }
  if (i - start < 2 || !nonHex) return false;
  let j = end;
  while (j > i && isLetter(line.charCodeAt(j - 1))) j--;
  if (end - j < 2 || j <= i || line.charCodeAt(j - 1) !== 95) return false;
  for (let k = i; k < j; k++) {
    const c = line.charCodeAt(k);
    if (c !== 95 && !isDigit(c) && !isLetter(c)) return false;
  }
  return true;
}

/** Whether a segment (its classes OR-ed in `flags`) is a value to mask. */
export function isMaskedSegment(line: string, start: number, end: number, flags: number, afterValue: boolean): boolean {
  if ((flags & C_DIGIT) !== 0) return !isCodeName(line, start, end);
  const len = end - start;
  if ((flags & C_NONHEX) === 0 && len >= 8) return true;
  if ((flags & C_BACKSLASH) !== 0) return true;
  if ((flags & C_SLASH) !== 0 && countChar(line, start, end, 47) >= 2) return true;
  if ((flags & (C_DOT | C_UPPER)) === C_DOT && countChar(line, start, end, 46) >= 2 && isHostName(line, start, end)) return true;
  if (len === 3 && (flags & C_UPPER) !== 0 && isDateName(line, start)) return true;
  return afterValue && len <= 5 && isUnitName(line, start, end);
}
