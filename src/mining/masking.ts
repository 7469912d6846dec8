/**
 * Tokenization and numeric masking of one log line, in a single pass over its characters.
 *
 * Rules (generic, no per-format regexes):
 * - tokens are separated by whitespace;
 * - inside a token, the characters in SEGMENT_DELIMITERS split it into segments and stay in the
 *   template as they are (so `user=42` becomes `user=<*>` and `10.0.0.1:8080` becomes `<*>:<*>`);
 * - a segment is masked to `<*>` when it holds a digit (numbers, decimals, negatives, units such
 *   as `12ms`, IPs, UUIDs, hex with or without `0x`, ids like `blk_-123`), when it is a run of at
 *   least 8 hex letters (hex without digits), a path (two or more `/`, or any `\`), a lowercase
 *   host name (three or more labels ending in a 2-3 letter label), a weekday or month
 *   abbreviation (timestamps), or a size/duration unit right after a masked number (`2.1 KB`);
 * - a run of whitespace tokens that are each exactly one wildcard collapses into one wildcard, so
 *   lists of values of varying length (`delete 1 2 3`) share a template;
 * - with keepHttpStatus, a token that is exactly a status code 100..599 right after an HTTP
 *   version token (`HTTP/1.1"`, `HTTP/1.0`, `HTTP/2`) stays literal and is "pinned": the miner
 *   never lets a wildcard stand for it;
 * - at most MAX_TOKENS tokens: a longer line keeps its first MAX_TOKENS - 1 tokens and one final
 *   `<*>` stands for the rest (folded), so such lines group by their head.
 *
 * The same scanner computes either the masked tokens or only a hash of the masked token stream
 * (the fingerprint), so that a fingerprint cache hit costs no string allocation and both paths
 * can never disagree on what the masked line is.
 */

/** Bumped whenever a rule above changes; a new value starts a masking epoch. */
export const MASKING_VERSION = 1;

/** Limit from the contract: at most this many tokens per mined line. */
export const MAX_TOKENS = 64;

/** Text of a wildcard in templates. */
export const WILDCARD = '<*>';

/** Characters that split a whitespace token into segments (kept literally in templates). */
const SEGMENT_DELIMITERS = '=:,()[]{}"\';@|<>';

const IS_DELIMITER = new Uint8Array(128);
for (const ch of SEGMENT_DELIMITERS) IS_DELIMITER[ch.charCodeAt(0)] = 1;

export interface MaskOptions {
  keepHttpStatus: boolean;
}

/** Marker values mixed into the fingerprint for structural events (never char codes < 0). */
const MARK_WILDCARD = 0x1_0001;
const MARK_TOKEN_END = 0x1_0002;

/** Result of a scan: the tokens (when built) and the fingerprint. */
export interface ScanOutput {
  tokens: string[];
  /** 53-bit hash of the masked token stream. */
  fingerprint: number;
}

function isWhitespace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 11 || c === 12;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isHexLetter(c: number): boolean {
  return (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

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

const DATE_NAMES = new Set(['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun', 'Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']);

/** Abbreviated weekday and month names: parts of timestamps, hence variables. */
function isDateName(line: string, start: number): boolean {
  return DATE_NAMES.has(line.slice(start, start + 3));
}

const UNIT_NAMES = new Set(['B', 'KB', 'MB', 'GB', 'TB', 'PB', 'KiB', 'MiB', 'GiB', 'TiB', 'bytes', 'ms', 'us', 'ns', 's', 'sec', 'secs', 'min', 'mins']);

/** Size and duration units (only masked right after a masked number). */
function isUnitName(line: string, start: number, end: number): boolean {
  return UNIT_NAMES.has(line.slice(start, end));
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
function isStatusToken(line: string, start: number, end: number): boolean {
  if (end - start !== 3) return false;
  const a = line.charCodeAt(start);
  return a >= 49 && a <= 53 && isDigit(line.charCodeAt(start + 1)) && isDigit(line.charCodeAt(start + 2));
}

/** One mixing step of the two 32-bit lanes (FNV-1a style, two different primes). */
function mixA(h: number, v: number): number {
  return Math.imul(h ^ v, 0x01000193);
}
function mixB(h: number, v: number): number {
  return Math.imul(h ^ v, 0x5bd1e995) ^ (h >>> 15);
}

/**
 * Scans a line. When `build` is false only the fingerprint is computed (no allocation).
 * Returns the fingerprint; tokens are pushed into `tokensOut` when building.
 */
function scan(line: string, opts: MaskOptions, build: boolean, tokensOut: string[]): number {
  const len = line.length;
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  let tokenCount = 0;
  let prevWasHttpVersion = false;
  // Hash state at the start of the current token and of the 64th token (for folding).
  let tokA = a;
  let tokB = b;
  let foldA = a;
  let foldB = b;
  let tokStart = -1;
  let segStart = -1;
  let segA = a;
  let segB = b;
  let segHasDigit = false;
  let segAllHex = true;
  let segSlashes = 0;
  let segDots = 0;
  let segUpper = false;
  let tokenText = '';
  let folded = false;
  // Whole-wildcard tokens: a run of them collapses into one (variable-length lists of values).
  let tokPieces = 0;
  let tokWildcard = false;
  let prevWholeWildcard = false;
  // A unit name right after a masked number (`2.1 KB`, `30 ms`) is part of the value.
  let lastSegMasked = false;

  let i = 0;
  while (i <= len) {
    const c = i < len ? line.charCodeAt(i) : 32;
    const ws = isWhitespace(c);
    const delim = !ws && c < 128 && IS_DELIMITER[c] === 1;
    if (ws || delim) {
      if (segStart >= 0) {
        // Segment end: keep the speculative hash or replace the segment by a wildcard.
        const segLen = i - segStart;
        if (
          segHasDigit ||
          (segAllHex && segLen >= 8) ||
          segSlashes >= 2 ||
          (segDots >= 2 && !segUpper && isHostName(line, segStart, i)) ||
          (segLen === 3 && segUpper && isDateName(line, segStart)) ||
          (lastSegMasked && segLen <= 5 && isUnitName(line, segStart, i))
        ) {
          lastSegMasked = true;
          a = mixA(segA, MARK_WILDCARD);
          b = mixB(segB, MARK_WILDCARD);
          tokWildcard = true;
          if (build) tokenText += WILDCARD;
        } else {
          lastSegMasked = false;
          if (build) tokenText += line.slice(segStart, i);
        }
        segStart = -1;
        tokPieces++;
      }
      if (delim) {
        if (tokStart < 0) {
          if (tokenCount === MAX_TOKENS) {
            folded = true;
            break;
          }
          tokStart = i;
          tokA = a;
          tokB = b;
          if (tokenCount === MAX_TOKENS - 1) {
            foldA = a;
            foldB = b;
          }
        }
        a = mixA(a, c);
        b = mixB(b, c);
        tokPieces++;
        if (build) tokenText += line[i];
      } else if (tokStart >= 0) {
        // Token end.
        if (opts.keepHttpStatus && prevWasHttpVersion && isStatusToken(line, tokStart, i)) {
          a = tokA;
          b = tokB;
          for (let k = tokStart; k < i; k++) {
            a = mixA(a, line.charCodeAt(k));
            b = mixB(b, line.charCodeAt(k));
          }
          tokWildcard = false;
          if (build) tokenText = line.slice(tokStart, i);
        }
        const wholeWildcard = tokPieces === 1 && tokWildcard;
        tokPieces = 0;
        tokWildcard = false;
        if (wholeWildcard && prevWholeWildcard) {
          a = tokA;
          b = tokB;
          tokStart = -1;
          tokenText = '';
          prevWasHttpVersion = false;
          i++;
          continue;
        }
        prevWholeWildcard = wholeWildcard;
        prevWasHttpVersion = opts.keepHttpStatus && i - tokStart <= 10 && isHttpVersionToken(line, tokStart, i);
        a = mixA(a, MARK_TOKEN_END);
        b = mixB(b, MARK_TOKEN_END);
        if (build) {
          tokensOut.push(tokenText);
          tokenText = '';
        }
        tokenCount++;
        tokStart = -1;
      }
    } else {
      if (tokStart < 0) {
        if (tokenCount === MAX_TOKENS) {
          folded = true;
          break;
        }
        tokStart = i;
        tokA = a;
        tokB = b;
        if (tokenCount === MAX_TOKENS - 1) {
          foldA = a;
          foldB = b;
        }
      }
      if (segStart < 0) {
        segStart = i;
        segA = a;
        segB = b;
        segHasDigit = false;
        segAllHex = true;
        segSlashes = 0;
        segDots = 0;
        segUpper = false;
      }
      if (isDigit(c)) segHasDigit = true;
      else if (!isHexLetter(c)) segAllHex = false;
      if (c === 47 || c === 92) segSlashes += c === 92 ? 2 : 1;
      else if (c === 46) segDots++;
      else if (c >= 65 && c <= 90) segUpper = true;
      a = mixA(a, c);
      b = mixB(b, c);
    }
    i++;
  }
  if (folded) {
    // The 64th token and everything after it become one trailing wildcard.
    a = mixA(mixA(foldA, MARK_WILDCARD), MARK_TOKEN_END);
    b = mixB(mixB(foldB, MARK_WILDCARD), MARK_TOKEN_END);
    if (build) tokensOut[MAX_TOKENS - 1] = WILDCARD;
  }
  // 21 bits of lane b above the 32 of lane a: exact in a double, ~2^-53 collision odds per pair.
  return (b & 0x1fffff) * 0x1_0000_0000 + (a >>> 0);
}

/** Hash of the masked token stream of `line`, without allocating the tokens. */
export function fingerprintLine(line: string, opts: MaskOptions): number {
  return scan(line, opts, false, []);
}

/** Masked tokens of `line` (at most MAX_TOKENS) and their fingerprint. */
export function maskLine(line: string, opts: MaskOptions): ScanOutput {
  const tokens: string[] = [];
  const fingerprint = scan(line, opts, true, tokens);
  return { tokens, fingerprint };
}

/**
 * True for a kept (pinned) token: after masking every digit-bearing segment is a wildcard, so a
 * token that still starts with a digit can only be a kept HTTP status code.
 */
export function isPinnedToken(token: string): boolean {
  return isDigit(token.charCodeAt(0));
}
