import assert from 'node:assert/strict';
import { test } from 'node:test';
import { xxh3 } from './xxhash.js';
import { Xxh3Scratch } from './xxh3-wasm.js';

/** Deterministic bytes (a linear congruential generator), so a failure names a reproducible length. */
function bytesOf(length: number, seed: number): Buffer {
  const out = Buffer.allocUnsafe(length);
  let state = seed >>> 0;
  for (let i = 0; i < length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    out[i] = state >>> 24;
  }
  return out;
}

test('the WebAssembly XXH3-64 gives the native hash for every length from 0 to 4 KiB and past several blocks', () => {
  const scratch = new Xxh3Scratch();
  // Every size class: 0, 1-3, 4-8, 9-16, 17-128, 129-240, and long inputs of one and more 1 KiB blocks.
  const lengths = Array.from({ length: 4097 }, (_, i) => i);
  lengths.push(8191, 8192, 8193, 100_000);
  for (const length of lengths) {
    for (const seed of [1, 2]) {
      const input = bytesOf(length, length * 2 + seed);
      scratch.ensure(length);
      scratch.bytes.set(input);
      assert.equal(scratch.hash(length), xxh3.xxh64(input), `length ${length}`);
    }
  }
  // Zeros and 0xff (carries through every multiplication).
  for (const fill of [0x00, 0xff]) {
    for (const length of [3, 8, 16, 128, 240, 1025]) {
      scratch.bytes.fill(fill, 0, length);
      assert.equal(scratch.hash(length), xxh3.xxh64(Buffer.alloc(length, fill)));
    }
  }
});
