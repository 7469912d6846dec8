/**
 * The masking scanner's fingerprint (src/mining/masking.ts, `scan` without building tokens) in
 * AssemblyScript, compiled to WebAssembly (`npm run build:wasm`) for `svc templates`, which
 * fingerprints its input as read, in bytes: several times faster than the JavaScript scanner
 * (docs/log-mining.md has the figures).
 *
 * It reads bytes of memory: the character class of byte c at address c (the host writes
 * masking-rules.ts's table there, so classes have one source, every byte beyond ASCII a letter), a
 * line at [from, to). For ASCII a byte is the UTF-16 code unit the JavaScript scanner reads, so the
 * result is the same number; for UTF-8 the numbers differ but are equal exactly where those of the
 * JavaScript scanner are (the rules split and mask on ASCII bytes only). The parity test
 * (src/templates/wasm-fingerprint.test.ts) checks both on the LogHub sets, the own corpora and generated
 * lines. Every rule here mirrors one in masking.ts or masking-rules.ts: change both, or that test
 * fails.
 */
const C_SPACE: u32 = 1;
const C_DELIM: u32 = 2;
const C_DIGIT: u32 = 4;
const C_NONHEX: u32 = 8;
const C_SLASH: u32 = 16;
const C_BACKSLASH: u32 = 32;
const C_DOT: u32 = 64;
const C_UPPER: u32 = 128;
const MAX_TOKENS: i32 = 64;
const MARK_WILDCARD: u32 = 0x10001;
const MARK_TOKEN_END: u32 = 0x10002;
/** Bytes [0, 256) hold the class table; static data is placed after it (`--memoryBase 256`). */
const CLASS_TABLE_BYTES: usize = 256;

/** Where the host may write: past the class table and any static data, 16-byte aligned. */
export function freeAddress(): i32 {
  return <i32>((max(__heap_base, CLASS_TABLE_BYTES) + 15) & ~15);
}

/** The address of the first `\n` at or after `from` (`end` when none before it): 16 bytes a step. */
function nextNewline(from: i32, end: i32): i32 {
  let i = from;
  const newlines = i8x16.splat(10);
  while (i + 16 <= end) {
    const found = i8x16.bitmask(i8x16.eq(v128.load(<usize>i), newlines));
    if (found != 0) return i + ctz<i32>(found);
    i += 16;
  }
  while (i < end && at(i) != 10) i++;
  return i;
}

/** Where fingerprintLines stopped: the offset of the first line it did not reach. */
let resumeOffset: i32 = 0;

/**
 * Splits the text at [text, text + length) into lines (`\n`, an `\r` before it left out; bytes
 * after the last `\n` are no line) and fingerprints them, from offset `from` on, at most
 * `maxLines` of them: line k's start and end offsets go to the i32 pair at `ranges` + 8k, its
 * fingerprint to the f64 at `fingerprints` + 8k. Returns the number of lines written;
 * nextLineOffset() then tells where to go on.
 */
export function fingerprintLines(text: i32, length: i32, from: i32, maxLines: i32, ranges: i32, fingerprints: i32, keepStatus: bool): i32 {
  let count = 0;
  let start = text + from;
  const end = text + length;
  while (count < maxLines) {
    const i = nextNewline(start, end);
    if (i >= end) break;
    const lineEnd = i > start && at(i - 1) == 13 ? i - 1 : i;
    store<i32>(<usize>(ranges + 8 * count), start - text);
    store<i32>(<usize>(ranges + 8 * count + 4), lineEnd - text);
    store<f64>(<usize>(fingerprints + 8 * count), fingerprint(start, lineEnd, keepStatus));
    count++;
    start = i + 1;
  }
  resumeOffset = start - text;
  return count;
}

/** The offset after the last line fingerprintLines wrote. */
export function nextLineOffset(): i32 {
  return resumeOffset;
}

@inline function at(i: i32): u32 { return <u32>load<u8>(<usize>i); }
@inline function cls(c: u32): u32 { return <u32>load<u8>(<usize>c); }
@inline function step(h: u32, v: u32): u32 { return (h ^ v) * 0x01000193; }
@inline function mixB(h: u32, v: u32): u32 { return ((h ^ v) * 0x5bd1e995) ^ (h >>> 15); }
@inline function isDigit(c: u32): bool { return c - 48 <= 9; }
@inline function isLetter(c: u32): bool { return (c | 32) - 97 <= 25; }
@inline function isHexLetter(c: u32): bool { return (c | 32) - 97 <= 5; }

function isHttpVersionToken(start: i32, end: i32): bool {
  let i = start;
  if (at(i) == 34) i++;
  if (at(i) != 72 || at(i + 1) != 84 || at(i + 2) != 84 || at(i + 3) != 80 || at(i + 4) != 47) return false;
  i += 5;
  if (i >= end || !isDigit(at(i))) return false;
  i++;
  if (i < end && at(i) == 46) {
    i++;
    if (i >= end || !isDigit(at(i))) return false;
    i++;
  }
  if (i < end && at(i) == 34) i++;
  return i == end;
}

function isStatusToken(start: i32, end: i32): bool {
  if (end - start != 3) return false;
  const a = at(start);
  return a >= 49 && a <= 53 && isDigit(at(start + 1)) && isDigit(at(start + 2));
}

@inline function packed3(start: i32): u32 { return at(start) | (at(start + 1) << 8) | (at(start + 2) << 16); }

/** Weekday and month abbreviations (masking-rules.ts DATE_NAMES), three bytes little-endian. */
function isDateName(start: i32): bool {
  const w = packed3(start);
  switch (w) {
    case 0x6e6f4d: case 0x657554: case 0x646557: case 0x756854: case 0x697246: case 0x746153: case 0x6e7553:
    case 0x6e614a: case 0x626546: case 0x72614d: case 0x727041: case 0x79614d: case 0x6e754a: case 0x6c754a:
    case 0x677541: case 0x706553: case 0x74634f: case 0x766f4e: case 0x636544:
      return true;
  }
  return false;
}

/** B, KB, MB, GB, TB, PB, KiB, MiB, GiB, TiB (masking-rules.ts UNIT_NAMES). */
function isUnitName(start: i32, end: i32): bool {
  const len = end - start;
  if (len == 1) return at(start) == 66;
  if (len == 2) {
    if (at(start + 1) != 66) return false;
    const c = at(start);
    return c == 75 || c == 77 || c == 71 || c == 84 || c == 80;
  }
  if (len == 3) {
    if (at(start + 1) != 105 || at(start + 2) != 66) return false;
    const c = at(start);
    return c == 75 || c == 77 || c == 71 || c == 84;
  }
  return false;
}

function isHostName(start: i32, end: i32): bool {
  let k = end - 1;
  while (k > start && at(k) != 46) k--;
  const tld = end - k - 1;
  if (tld < 2 || tld > 3) return false;
  for (let j = k + 1; j < end; j++) {
    const c = at(j);
    if (c < 97 || c > 122) return false;
  }
  return true;
}

function countChar(start: i32, end: i32, code: u32): i32 {
  let n = 0;
  for (let k = start; k < end; k++) if (at(k) == code) n++;
  return n;
}

function literalPrefixLength(start: i32, end: i32): i32 {
  if (isDigit(at(start))) return 0;
  let i = start;
  while (i < end && at(i) == 47) i++;
  if (i > start) return i < end && isDigit(at(i)) ? i - start : 0;
  let keep = 0;
  for (;;) {
    let j = i;
    let nonHex = false;
    while (j < end) {
      const c = at(j);
      if (!isLetter(c)) break;
      if (!isHexLetter(c)) nonHex = true;
      j++;
    }
    const sep: u32 = j < end ? at(j) : 0;
    if (j - i < 2 || !nonHex || (sep != 95 && sep != 45 && sep != 46) || j + 1 >= end) return keep;
    keep = j + 1 - start;
    i = j + 1;
  }
  return keep;
}

function isCodeName(start: i32, end: i32): bool {
  let i = start;
  let nonHex = false;
  while (i < end && isLetter(at(i))) {
    if (!isHexLetter(at(i))) nonHex = true;
    i++;
  }
  if (i - start < 2 || !nonHex) return false;
  let j = end;
  while (j > i && isLetter(at(j - 1))) j--;
  if (end - j < 2 || j <= i || at(j - 1) != 95) return false;
  for (let k = i; k < j; k++) {
    const c = at(k);
    if (c != 95 && !isDigit(c) && !isLetter(c)) return false;
  }
  return true;
}

function isMaskedSegment(start: i32, end: i32, flags: u32, afterValue: bool): bool {
  if ((flags & C_DIGIT) != 0) return !isCodeName(start, end);
  const len = end - start;
  if ((flags & C_NONHEX) == 0 && len >= 8) return true;
  if ((flags & C_BACKSLASH) != 0) return true;
  if ((flags & C_SLASH) != 0 && countChar(start, end, 47) >= 2) return true;
  if ((flags & (C_DOT | C_UPPER)) == C_DOT && countChar(start, end, 46) >= 2 && isHostName(start, end)) return true;
  if (len == 3 && (flags & C_UPPER) != 0 && isDateName(start)) return true;
  return afterValue && len <= 5 && isUnitName(start, end);
}

function listTail(from: i32, to: i32): bool {
  for (let k = from; k < to; k++) {
    const c = at(k);
    if (c != 44 && c != 59) return false;
  }
  return true;
}

/** fingerprintRange of masking.ts for the line at [from, to) (addresses), under keepHttpStatus = keepStatus. */
export function fingerprint(from: i32, to: i32, keepStatus: bool): f64 {
  const len = to;
  let a: u32 = 0x811c9dc5;
  let b: u32 = 0x9747b28c;
  let tokenCount = 0;
  let prevWasHttpVersion = false;
  let tokA = a;
  let tokB = b;
  let foldA = a;
  let foldB = b;
  let segA = a;
  let wordHash = a;
  let tokStart = -1;
  let segStart = -1;
  let segFlags: u32 = 0;
  let folded = false;
  let tokSegments = 0;
  let tokBare = true;
  let firstSegStart = -1;
  let lastSegEnd = -1;
  let prevValue = false;
  let prevTokA = a;
  let prevTokB = b;
  let prevLeadFrom = 0;
  let prevLeadTo = 0;
  let lastSegMasked = false;

  for (let i = from; i <= len; i++) {
    const c: u32 = i < len ? at(i) : 32;
    const f = cls(c);
    if ((f & (C_SPACE | C_DELIM)) == 0) {
      if (segStart < 0) {
        if (tokStart < 0) {
          if (tokenCount == MAX_TOKENS) {
            folded = true;
            break;
          }
          tokStart = i;
          tokA = a;
          tokB = b;
          if (tokenCount == MAX_TOKENS - 1) {
            foldA = a;
            foldB = b;
          }
        }
        segStart = i;
        segA = a;
        segFlags = 0;
      }
      let flags = segFlags | f;
      let j = i + 1;
      if ((flags & C_DIGIT) == 0) {
        let h = step(a, c);
        while (j < len) {
          const d = at(j);
          const g = cls(d);
          if ((g & (C_SPACE | C_DELIM | C_DIGIT)) != 0) break;
          flags |= g;
          h = step(h, d);
          j++;
        }
        wordHash = h;
      }
      while (j < len) {
        const g = cls(at(j));
        if ((g & (C_SPACE | C_DELIM)) != 0) break;
        flags |= g;
        j++;
      }
      segFlags = flags;
      i = j - 1;
      continue;
    }
    if (segStart >= 0) {
      if (isMaskedSegment(segStart, i, segFlags, lastSegMasked)) {
        const keep = (segFlags & C_DIGIT) == 0 ? 0 : literalPrefixLength(segStart, i);
        let h = segA;
        for (let k = segStart; k < segStart + keep; k++) h = step(h, at(k));
        a = step(h, MARK_WILDCARD);
        lastSegMasked = true;
        if (keep == 0) {
          if (firstSegStart < 0) firstSegStart = segStart;
          lastSegEnd = i;
        } else tokBare = false;
      } else {
        if ((segFlags & C_DIGIT) == 0) a = wordHash;
        else {
          let h = segA;
          for (let k = segStart; k < i; k++) h = step(h, at(k));
          a = h;
        }
        lastSegMasked = false;
        tokBare = false;
      }
      b = mixB(b, a);
      segStart = -1;
      tokSegments++;
    }
    if ((f & C_DELIM) != 0) {
      if (tokStart < 0) {
        if (tokenCount == MAX_TOKENS) {
          folded = true;
          break;
        }
        tokStart = i;
        tokA = a;
        tokB = b;
        if (tokenCount == MAX_TOKENS - 1) {
          foldA = a;
          foldB = b;
        }
      }
      a = step(a, c);
      continue;
    }
    if (tokStart < 0) continue;
    const httpVersion = i - tokStart <= 10 && isHttpVersionToken(tokStart, i);
    let value = tokSegments > 0 && tokBare && !httpVersion;
    if (keepStatus && prevWasHttpVersion && isStatusToken(tokStart, i)) {
      a = tokA;
      b = tokB;
      for (let k = tokStart; k < i; k++) a = step(a, at(k));
      value = false;
    }
    if (value) {
      let leadFrom = tokStart;
      let leadTo = firstSegStart;
      if (prevValue && firstSegStart == tokStart) {
        a = prevTokA;
        b = prevTokB;
        leadFrom = prevLeadFrom;
        leadTo = prevLeadTo;
        tokenCount--;
      } else {
        a = tokA;
        b = tokB;
      }
      prevTokA = a;
      prevTokB = b;
      prevLeadFrom = leadFrom;
      prevLeadTo = leadTo;
      for (let k = leadFrom; k < leadTo; k++) a = step(a, at(k));
      a = step(a, MARK_WILDCARD);
      b = mixB(b, a);
      for (let k = lastSegEnd; k < i; k++) a = step(a, at(k));
    }
    prevValue = value && listTail(lastSegEnd, i);
    tokSegments = 0;
    tokBare = true;
    firstSegStart = -1;
    lastSegEnd = -1;
    prevWasHttpVersion = keepStatus && httpVersion;
    a = step(a, MARK_TOKEN_END);
    b = mixB(b, a);
    tokenCount++;
    tokStart = -1;
  }
  if (folded) {
    a = step(step(foldA, MARK_WILDCARD), MARK_TOKEN_END);
    b = mixB(foldB, a);
  }
  return <f64>(b & 0x1fffff) * 4294967296.0 + <f64>a;
}
