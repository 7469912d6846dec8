/**
 * The last N closed trace ids of one partition, with when each closed piece was opened, so that an
 * item arriving after its trace closed is recognised as late. A fixed-size ring: the oldest id is
 * forgotten when the (N+1)th closes, so memory stays bounded whatever the trace rate
 * (contract: 100,000 closed trace ids remembered per partition).
 *
 * Why typed arrays instead of a Map<string, ...>: at the contract's 100,000 ids x 12 partitions, a
 * Map of the decoder's trace-id strings measured ~280 MiB of heap (each id a 32-character string
 * plus entry overhead), more than half of the 512 MiB memory target. Here an id is a 64-bit key
 * folded from its 128 bits (two uint32) in a ring, found through an open-addressing index: about
 * 27 bytes per id, ~30 MiB for all 12 partitions (the full 128 bits took ~36 bytes, ~42 MiB). Two
 * random ids share a key with odds of 2^-64 a pair: with 100,000 remembered, a new trace is taken
 * for a closed one about once in 10^14 traces, and then its items are counted late, not lost (the
 * writer stores every item either way).
 */
import { xxh3 } from '../util/xxhash.js';

const WORDS = 2;

export class RecentClosed {
  /** Ring of id keys, WORDS uint32 per slot. */
  private readonly ids: Uint32Array;
  /** NaN marks a slot emptied by forget() or a re-remember; slots at or past `filled` were never written. */
  private readonly openedAtMs: Float64Array;
  /** Linear-probing index: ring slot + 1, or 0 for empty. Power-of-two size, at most half full. */
  private readonly index: Int32Array;
  private readonly mask: number;
  private readonly words = new Uint32Array(WORDS);
  private readonly hexWords = new Uint32Array(4);
  private next = 0;
  private filled = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
    this.ids = new Uint32Array(capacity * WORDS);
    this.openedAtMs = new Float64Array(capacity);
    let size = 2;
    while (size < capacity * 2) size *= 2;
    this.index = new Int32Array(size);
    this.mask = size - 1;
  }

  get size(): number {
    return this.count;
  }

  /** Remembers a closed trace piece (replacing an older memory of the same id). */
  remember(traceId: string, openedAtMs: number): void {
    this.toWords(traceId);
    const found = this.find();
    if (found !== -1) this.removeAt(found);
    const slot = this.next;
    if (slot < this.filled && !Number.isNaN(this.openedAtMs[slot])) {
      // Forget the oldest: find its index entry through its own words.
      for (let w = 0; w < WORDS; w++) this.words[w] = this.ids[slot * WORDS + w];
      this.removeAt(this.find());
      this.toWords(traceId);
    }
    for (let w = 0; w < WORDS; w++) this.ids[slot * WORDS + w] = this.words[w];
    this.openedAtMs[slot] = openedAtMs;
    this.filled = Math.max(this.filled, slot + 1);
    let i = this.home(this.words);
    while (this.index[i] !== 0) i = (i + 1) & this.mask;
    this.index[i] = slot + 1;
    this.count++;
    this.next = (slot + 1) % this.capacity;
  }

  /** When the remembered closed piece of this trace was opened, or undefined when not remembered. */
  openedAt(traceId: string): number | undefined {
    this.toWords(traceId);
    const found = this.find();
    return found === -1 ? undefined : this.openedAtMs[this.index[found] - 1];
  }

  forget(traceId: string): void {
    this.toWords(traceId);
    const found = this.find();
    if (found !== -1) this.removeAt(found);
  }

  /**
   * The id's 64-bit key. Trace ids are 32 lowercase hex characters (the decoder's form); anything
   * else is hashed to 128 bits first. The fold multiplies one half by odd constants (a bijection),
   * so ids that differ in one half only (64-bit ids padded with zeros, say) never share a key.
   */
  private toWords(traceId: string): void {
    const w = this.hexWords;
    if (!readHex32(traceId, w)) {
      const hash = xxh3.xxh128(Buffer.from(traceId, 'utf8'));
      for (let i = 0; i < 4; i++) w[i] = Number((hash >> BigInt(32 * (3 - i))) & 0xffffffffn);
    }
    this.words[0] = w[0] ^ Math.imul(w[3], 0x9e3779b1);
    this.words[1] = w[1] ^ Math.imul(w[2], 0x85ebca6b);
  }

  /** The index position of this.words, or -1. */
  private find(): number {
    let i = this.home(this.words);
    for (;;) {
      const entry = this.index[i];
      if (entry === 0) return -1;
      if (this.matches(entry - 1)) return i;
      i = (i + 1) & this.mask;
    }
  }

  private matches(slot: number): boolean {
    const base = slot * WORDS;
    for (let w = 0; w < WORDS; w++) if (this.ids[base + w] !== this.words[w]) return false;
    return true;
  }

  /** Where a key would sit without collisions. Trace ids are random, but mix anyway. */
  private home(words: Uint32Array): number {
    return this.homeOf(words[0], words[1]);
  }

  private homeOfSlot(slot: number): number {
    return this.homeOf(this.ids[slot * WORDS], this.ids[slot * WORDS + 1]);
  }

  private homeOf(low: number, high: number): number {
    return (Math.imul(low ^ (high >>> 16), 0xcc9e2d51) ^ Math.imul(high, 0x1b873593)) & this.mask;
  }

  /** Removes index entry `i` and its ring slot; backward-shift deletion keeps probe chains whole. */
  private removeAt(i: number): void {
    this.openedAtMs[this.index[i] - 1] = Number.NaN;
    this.index[i] = 0;
    this.count--;
    let hole = i;
    let j = i;
    for (;;) {
      j = (j + 1) & this.mask;
      const entry = this.index[j];
      if (entry === 0) return;
      const home = this.homeOfSlot(entry - 1);
      // The entry at j may move into the hole only if its home is not cyclically in (hole, j].
      const inRange = hole <= j ? home > hole && home <= j : home > hole || home <= j;
      if (!inRange) {
        this.index[hole] = entry;
        this.index[j] = 0;
        hole = j;
      }
    }
  }
}

/**
 * Reads 32 lowercase hex characters into four uint32, by character code: the regex test and four
 * slices with parseInt it replaces were ~1 % of the all-in-one main thread (every bus record of
 * spans looks its trace id up here). False, `words` unspecified, for anything else.
 */
export function readHex32(text: string, words: Uint32Array): boolean {
  if (text.length !== 32) return false;
  for (let word = 0; word < 4; word++) {
    let value = 0;
    for (let i = word * 8; i < word * 8 + 8; i++) {
      const code = text.charCodeAt(i);
      let digit: number;
      if (code >= 48 && code <= 57) digit = code - 48;
      else if (code >= 97 && code <= 102) digit = code - 87;
      else return false;
      value = (value << 4) | digit;
    }
    words[word] = value;
  }
  return true;
}
