/**
 * Bounded map from a line's masked-token fingerprint to its last result, per service.
 *
 * Two generations approximate LRU without per-hit bookkeeping: entries live in `young`; when it
 * holds half the capacity it becomes `old` and the previous `old` is dropped. A hit in `old` is
 * promoted. At most `capacity` entries are held at any time.
 */

/** Contract limit: fingerprint cache entries per service. */
export const FINGERPRINT_CACHE_ENTRIES = 10_000;

export class FingerprintCache<V> {
  private young = new Map<number, V>();
  private old = new Map<number, V>();
  private readonly generationSize: number;

  constructor(capacity: number = FINGERPRINT_CACHE_ENTRIES) {
    this.generationSize = Math.max(1, Math.floor(capacity / 2));
  }

  get(fingerprint: number): V | undefined {
    const hit = this.young.get(fingerprint);
    if (hit !== undefined) return hit;
    const aged = this.old.get(fingerprint);
    if (aged !== undefined) {
      this.old.delete(fingerprint);
      this.set(fingerprint, aged);
    }
    return aged;
  }

  set(fingerprint: number, value: V): void {
    if (!this.young.has(fingerprint) && this.young.size >= this.generationSize) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(fingerprint, value);
  }

  get size(): number {
    return this.young.size + this.old.size;
  }
}
