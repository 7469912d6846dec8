/**
 * The last N closed trace ids of one partition, with when each closed piece was opened, so that an
 * item arriving after its trace closed is recognised as late. A fixed-size ring: the oldest id is
 * forgotten when the (N+1)th closes, so memory stays bounded whatever the trace rate
 * (contract: 100,000 closed trace ids remembered per partition).
 *
 * Why typed arrays instead of a Map<string, ...>: at the contract's 100,000 ids x 12 partitions, a
 * Map of the decoder's trace-id strings measured ~280 MiB of heap (each id a 32-character string
 * plus entry overhead), more than half of the 512 MiB memory target. Here an id is its 128 bits
 * (four uint32) in a ring, found through an open-addressing index: about 36 bytes per id, ~42 MiB
 * for all 12 partitions (measured 40.6 MiB).
 */
import { xxh3 } from '../util/xxhash.js';

const HEX32 = /^[0-9a-f]{32}$/;
const WORDS = 4;

export class RecentClosed {
  /** Ring of ids, WORDS uint32 per slot. */
  private readonly ids: Uint32Array;
  private readonly openedAtMs: Float64Array;
  private readonly used: Uint8Array;
  /** Linear-probing index: ring slot + 1, or 0 for empty. Power-of-two size, at most half full. */
  private readonly index: Int32Array;
  private readonly mask: number;
  private readonly words = new Uint32Array(WORDS);
  private next = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be a positive integer');
    this.ids = new Uint32Array(capacity * WORDS);
    this.openedAtMs = new Float64Array(capacity);
    this.used = new Uint8Array(capacity);
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
    if (this.used[slot] === 1) {
      // Forget the oldest: find its index entry through its own words.
      for (let w = 0; w < WORDS; w++) this.words[w] = this.ids[slot * WORDS + w];
      this.removeAt(this.find());
      this.toWords(traceId);
    }
    for (let w = 0; w < WORDS; w++) this.ids[slot * WORDS + w] = this.words[w];
    this.openedAtMs[slot] = openedAtMs;
    this.used[slot] = 1;
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

  /** Trace ids are 32 lowercase hex characters (the decoder's form); anything else is hashed to 128 bits. */
  private toWords(traceId: string): void {
    if (HEX32.test(traceId)) {
      for (let w = 0; w < WORDS; w++) this.words[w] = Number.parseInt(traceId.slice(w * 8, w * 8 + 8), 16);
      return;
    }
    const hash = xxh3.xxh128(Buffer.from(traceId, 'utf8'));
    for (let w = 0; w < WORDS; w++) this.words[w] = Number((hash >> BigInt(32 * (WORDS - 1 - w))) & 0xffffffffn);
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

  /** Where an id would sit without collisions. Trace ids are random, but mix anyway. */
  private home(words: Uint32Array): number {
    return (Math.imul(words[0] ^ words[3], 0x9e3779b1) ^ Math.imul(words[1] ^ words[2], 0x85ebca6b)) & this.mask;
  }

  private homeOfSlot(slot: number): number {
    const base = slot * WORDS;
    const w = this.ids;
    return (Math.imul(w[base] ^ w[base + 3], 0x9e3779b1) ^ Math.imul(w[base + 1] ^ w[base + 2], 0x85ebca6b)) & this.mask;
  }

  /** Removes index entry `i` and its ring slot; backward-shift deletion keeps probe chains whole. */
  private removeAt(i: number): void {
    this.used[this.index[i] - 1] = 0;
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
