/**
 * Bounded map from a line's masked-token fingerprint to its last result, per service.
 *
 * Two generations approximate LRU without per-hit bookkeeping: entries live in `young`; when it
 * holds half the capacity it becomes `old` and the previous `old` is dropped. A hit in `old` is
 * promoted. At most `capacity` entries are held at any time.
 *
 * Maps are keyed by the low 30 bits of the 53-bit fingerprint, a small integer that V8 hashes
 * without boxing; the entry keeps the whole fingerprint and a hit is checked against it, so a
 * clash of the low bits is a miss, never a wrong answer.
 */

/** What the cache stores: anything that remembers its full fingerprint. */
export interface Fingerprinted {
  readonly fingerprint: number;
}

/** Contract limit: fingerprint cache entries per service. */
export const FINGERPRINT_CACHE_ENTRIES = 10_000;

export class FingerprintCache<V extends Fingerprinted> {
  private young = new Map<number, V>();
  private old = new Map<number, V>();
  private readonly generationSize: number;

  constructor(capacity: number = FINGERPRINT_CACHE_ENTRIES) {
    this.generationSize = Math.max(1, Math.floor(capacity / 2));
  }

  get(fingerprint: number): V | undefined {
    const key = fingerprint & 0x3fffffff;
    const hit = this.young.get(key);
    if (hit !== undefined) return hit.fingerprint === fingerprint ? hit : undefined;
    const aged = this.old.get(key);
    if (aged === undefined || aged.fingerprint !== fingerprint) return undefined;
    this.old.delete(key);
    this.set(aged);
    return aged;
  }

  set(value: V): void {
    const key = value.fingerprint & 0x3fffffff;
    if (!this.young.has(key) && this.young.size >= this.generationSize) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(key, value);
  }

  get size(): number {
    return this.young.size + this.old.size;
  }
}
