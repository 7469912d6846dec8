/**
 * Tokenization and numeric masking of one log line, in a single pass over its characters.
 *
 * Rules (generic, no per-format regexes):
 * - tokens are separated by whitespace;
 * - inside a token, the characters in SEGMENT_DELIMITERS split it into segments and stay in the
 *   template as they are (so `user=42` becomes `user=<*>` and `10.0.0.1:8080` becomes `<*>:<*>`);
 * - a masked segment keeps, literally, the leading slashes of a number (`/10.0.0.1`) and a name of
 *   letters (with a letter outside a-f) joined to the value by `_`, `-` or `.` (`blk_<*>`,
 *   `node-<*>`, `core.<*>`), so templates read like the line (masking version 2);
 * - a segment is masked to `<*>` when it holds a digit (numbers, decimals, negatives, units such
 *   as `12ms`, IPs, UUIDs, hex with or without `0x`, ids like `blk_-123`), when it is a run of at
 *   least 8 hex letters (hex without digits), a path (two or more `/`, or any `\`), a lowercase
 *   host name (three or more labels ending in a 2-3 letter label), a weekday or month
 *   abbreviation (timestamps), or a size/duration unit right after a masked number (`2.1 KB`);
 *   but a name from code with a digit inside (`jk2_init`, `utf8_decode`: two letters or more with
 *   one outside a-f, then a last `_` part of letters) stays literal (masking version 3);
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
 *
 * `svc templates` computes the fingerprint with a copy of this scanner compiled to WebAssembly
 * (assembly/fingerprint.ts), over the input's bytes: a rule changed here or in masking-rules.ts
 * must be changed there too, or src/templates/wasm-fingerprint.test.ts fails.
 */

import { CLASS_UTF16, C_DELIM, C_DIGIT, C_SPACE, isDigit, literalPrefixLength, isHttpVersionToken, isMaskedSegment, isStatusToken } from './masking-rules.js';

/** Bumped whenever a rule (here or in masking-rules.ts) changes; a new value starts a masking epoch. */
export const MASKING_VERSION = 3;

/** Limit from the contract: at most this many tokens per mined line. */
export const MAX_TOKENS = 64;

/** Text of a wildcard in templates. */
export const WILDCARD = '<*>';

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

/** Per-character step (FNV-1a); the second lane is mixed only at segment and token ends. */
function step(h: number, v: number): number {
  return Math.imul(h ^ v, 0x01000193);
}
function mixB(h: number, v: number): number {
  return Math.imul(h ^ v, 0x5bd1e995) ^ (h >>> 15);
}

/**
 * Scans a line. When `build` is false only the fingerprint is computed (no allocation).
 * Returns the fingerprint; tokens are pushed into `tokensOut` when building.
 */
function scan(line: string, keepStatus: boolean, build: boolean, tokensOut: string[], from: number, to: number): number {
  // The line is line[from, to): a reader can scan a line inside its read buffer without a slice.
  // keepStatus is a boolean, not the options object: callers pass objects of different shapes
  // (literals, worker data), and each new shape deoptimized the compiled scanner.
  const len = to;
  let a = 0x811c9dc5;
  let b = 0x9747b28c;
  let tokenCount = 0;
  let prevWasHttpVersion = false;
  // Hash state at the start of the current token, of the current segment, and of the 64th token.
  let tokA = a;
  let tokB = b;
  let foldA = a;
  let foldB = b;
  let segA = a;
  // Hash of the current segment's text from segA on, while it holds no digit.
  let wordHash = a;
  let tokStart = -1;
  let segStart = -1;
  let segFlags = 0;
  let tokenText = '';
  let folded = false;
  // Value tokens (only bare wildcards and delimiters, `<*>`, `<*>,`, `(<*>)`, `<*>:<*>`) read as
  // one wildcard between their leading and trailing delimiters, and a list of them is one token
  // (`[1, 2, 3]` is `[<*>]` like `[1]`), so lists and glued punctuation keep the token count.
  let tokSegments = 0;
  let tokBare = true;
  let firstSegStart = -1;
  let lastSegEnd = -1;
  let prevValue = false;
  let prevTokA = a;
  let prevTokB = b;
  let prevLeadFrom = 0;
  let prevLeadTo = 0;
  // A size unit right after a masked number (`2.1 KB`) is part of the value.
  let lastSegMasked = false;

  for (let i = from; i <= len; i++) {
    const c = i < len ? line.charCodeAt(i) : 32;
    // Every UTF-16 code unit has a class.
    const f = CLASS_UTF16[c]!;
    if ((f & (C_SPACE | C_DELIM)) === 0) {
      if (segStart < 0) {
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
        segStart = i;
        segA = a;
        segFlags = 0;
      }
      // The rest of the segment in tight loops: most characters are inside segments, and the outer
      // loop's state made this step three times slower. Characters are hashed only up to the
      // first digit: a segment with a digit is a value, whose text is never hashed.
      let flags = segFlags | f;
      let j = i + 1;
      if ((flags & C_DIGIT) === 0) {
        let h = step(a, c);
        while (j < len) {
          const d = line.charCodeAt(j);
          const g = CLASS_UTF16[d]!;
          if ((g & (C_SPACE | C_DELIM | C_DIGIT)) !== 0) break;
          flags |= g;
          h = step(h, d);
          j++;
        }
        wordHash = h;
      }
      while (j < len) {
        const g = CLASS_UTF16[line.charCodeAt(j)]!;
        if ((g & (C_SPACE | C_DELIM)) !== 0) break;
        flags |= g;
        j++;
      }
      segFlags = flags;
      i = j - 1;
      continue;
    }
    if (segStart >= 0) {
      // Segment end: keep the hash of its text or replace the segment by a wildcard.
      if (isMaskedSegment(line, segStart, i, segFlags, lastSegMasked)) {
        const keep = (segFlags & C_DIGIT) === 0 ? 0 : literalPrefixLength(line, segStart, i);
        let h = segA;
        for (let k = segStart; k < segStart + keep; k++) h = step(h, line.charCodeAt(k));
        a = step(h, MARK_WILDCARD);
        lastSegMasked = true;
        // `blk_<*>` is a named value, not a bare one: its token is no value token.
        if (keep === 0) {
          if (firstSegStart < 0) firstSegStart = segStart;
          lastSegEnd = i;
        } else tokBare = false;
        if (build) tokenText += keep === 0 ? WILDCARD : line.slice(segStart, segStart + keep) + WILDCARD;
      } else {
        // A kept segment without a digit was hashed whole; a code name with one only up to its first digit.
        if ((segFlags & C_DIGIT) === 0) a = wordHash;
        else {
          let h = segA;
          for (let k = segStart; k < i; k++) h = step(h, line.charCodeAt(k));
          a = h;
        }
        lastSegMasked = false;
        tokBare = false;
        if (build) tokenText += line.slice(segStart, i);
      }
      b = mixB(b, a);
      segStart = -1;
      tokSegments++;
    }
    if ((f & C_DELIM) !== 0) {
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
      a = step(a, c);
      if (build) tokenText += line[i];
      continue;
    }
    if (tokStart < 0) continue;
    // Token end.
    // An HTTP version is a word of the request line, never a value (whatever keep_http_status).
    const httpVersion = i - tokStart <= 10 && isHttpVersionToken(line, tokStart, i);
    let value = tokSegments > 0 && tokBare && !httpVersion;
    if (keepStatus && prevWasHttpVersion && isStatusToken(line, tokStart, i)) {
      a = tokA;
      b = tokB;
      for (let k = tokStart; k < i; k++) a = step(a, line.charCodeAt(k));
      value = false;
      if (build) tokenText = line.slice(tokStart, i);
    }
    if (value) {
      let leadFrom = tokStart;
      let leadTo = firstSegStart;
      if (prevValue && firstSegStart === tokStart) {
        // Joins the previous value token: restart from its start and keep its lead.
        a = prevTokA;
        b = prevTokB;
        leadFrom = prevLeadFrom;
        leadTo = prevLeadTo;
        tokenCount--;
        if (build) tokensOut.pop();
      } else {
        a = tokA;
        b = tokB;
      }
      prevTokA = a;
      prevTokB = b;
      prevLeadFrom = leadFrom;
      prevLeadTo = leadTo;
      for (let k = leadFrom; k < leadTo; k++) a = step(a, line.charCodeAt(k));
      a = step(a, MARK_WILDCARD);
      b = mixB(b, a);
      for (let k = lastSegEnd; k < i; k++) a = step(a, line.charCodeAt(k));
      if (build) tokenText = leadFrom === leadTo && lastSegEnd === i ? WILDCARD : line.slice(leadFrom, leadTo) + WILDCARD + line.slice(lastSegEnd, i);
    }
    // Only a list continues a run: a value token ending bare or in `,` / `;` (`1, 2`, `1 2`).
    prevValue = value && listTail(line, lastSegEnd, i);
    tokSegments = 0;
    tokBare = true;
    firstSegStart = -1;
    lastSegEnd = -1;
    prevWasHttpVersion = keepStatus && httpVersion;
    a = step(a, MARK_TOKEN_END);
    b = mixB(b, a);
    if (build) {
      tokensOut.push(tokenText);
      tokenText = '';
    }
    tokenCount++;
    tokStart = -1;
  }
  if (folded) {
    // The 64th token and everything after it become one trailing wildcard.
    a = step(step(foldA, MARK_WILDCARD), MARK_TOKEN_END);
    b = mixB(foldB, a);
    if (build) tokensOut[MAX_TOKENS - 1] = WILDCARD;
  }
  // 21 bits of lane b above the 32 of lane a: exact in a double.
  return (b & 0x1fffff) * 0x1_0000_0000 + (a >>> 0);
}

/** Whether the characters after a token's last value are only list separators (or none). */
function listTail(line: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    const c = line.charCodeAt(k);
    if (c !== 44 && c !== 59) return false;
  }
  return true;
}

/** Never written: scan only pushes tokens when building. */
const NO_TOKENS: string[] = [];

/** Hash of the masked token stream of `line`, without allocating the tokens. */
export function fingerprintLine(line: string, opts: MaskOptions): number {
  return scan(line, opts.keepHttpStatus, false, NO_TOKENS, 0, line.length);
}

/** Fingerprint of the line text[start, end), the same as of that slice. */
export function fingerprintRange(text: string, start: number, end: number, opts: MaskOptions): number {
  return scan(text, opts.keepHttpStatus, false, NO_TOKENS, start, end);
}

/** Masked tokens of `line` (at most MAX_TOKENS) and their fingerprint. */
export function maskLine(line: string, opts: MaskOptions): ScanOutput {
  const tokens: string[] = [];
  const fingerprint = scan(line, opts.keepHttpStatus, true, tokens, 0, line.length);
  return { tokens, fingerprint };
}

/**
 * True for a kept (pinned) token: after masking every digit-bearing segment is a wildcard, so a
 * token that still starts with a digit can only be a kept HTTP status code.
 */
export function isPinnedToken(token: string): boolean {
  return isDigit(token.charCodeAt(0));
}
