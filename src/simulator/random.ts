/**
 * The simulator's own seeded randomness: xoshiro128** (128-bit state), never Math.random, so that
 * one seed always gives the same traffic. Each trace and each second draws from its own stream
 * keyed by several numbers; the 128-bit state keeps millions of such streams from overlapping or
 * repeating (a 32-bit generator such as mulberry32 repeats ids within an hour of traffic).
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  /** A stream keyed by the given integers (a seed, then e.g. a second and an index). */
  constructor(...key: number[]) {
    this.a = mixSeed(0x1, ...key);
    this.b = mixSeed(0x2, ...key);
    this.c = mixSeed(0x3, ...key);
    this.d = mixSeed(0x4, ...key) | 1;
  }

  /** A uniform 32-bit unsigned integer. */
  uint32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /** Uniform in [min, max). */
  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** A whole number in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }

  /** Standard normal (Box-Muller; one of the pair is dropped for simplicity). */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }

  /** Lognormal with the given median and shape (sigma of the underlying normal). */
  lognormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** A Poisson count with the given mean (Knuth for small means, a rounded normal above 30). */
  poisson(mean: number): number {
    if (mean <= 0) return 0;
    if (mean > 30) return Math.max(0, Math.round(mean + Math.sqrt(mean) * this.normal()));
    const limit = Math.exp(-mean);
    let count = 0;
    let product = this.next();
    while (product > limit) {
      count++;
      product *= this.next();
    }
    return count;
  }

  /** `chars` lowercase hex characters (a multiple of 8). */
  hex(chars: number): string {
    let out = '';
    for (let i = 0; i < chars; i += 8) {
      const word = this.uint32();
      out += (BYTE_HEX[word >>> 24] ?? '') + (BYTE_HEX[(word >>> 16) & 0xff] ?? '') + (BYTE_HEX[(word >>> 8) & 0xff] ?? '') + (BYTE_HEX[word & 0xff] ?? '');
    }
    return out;
  }
}

/** Two hex characters per byte value: building ids from this table is ~4x faster than toString(16) and padStart. */
const BYTE_HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

function rotl(value: number, bits: number): number {
  return (value << bits) | (value >>> (32 - bits));
}

/** Mixes integers into one 32-bit seed (a murmur3-style finalizer per part), to derive independent streams. */
export function mixSeed(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const part of parts) {
    let k = Math.imul((part | 0) ^ Math.floor(part / 4294967296), 0xcc9e2d51);
    k = Math.imul((k << 15) | (k >>> 17), 0x1b873593);
    h ^= k;
    h = Math.imul((h << 13) | (h >>> 19), 5) + 0xe6546b64;
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
