/**
 * XXH3-64 (seed 0, the default secret) in AssemblyScript, compiled to WebAssembly (`npm run
 * build:wasm`): the hash of a log id (src/otlp/log-id.ts). The native package's call costs some
 * hundreds of nanoseconds a hash, mostly crossing into it; a WebAssembly call is a few. Bit for bit
 * the native xxh3.xxh64 (the parity test, src/util/xxh3-wasm.test.ts, checks lengths 0 to 4 KiB and
 * every size class of the algorithm).
 *
 * The host writes the input at freeAddress() and calls hash(address, length).
 */

const PRIME32_1: u64 = 0x9e3779b1;
const PRIME32_2: u64 = 0x85ebca77;
const PRIME32_3: u64 = 0xc2b2ae3d;
const PRIME64_1: u64 = 0x9e3779b185ebca87;
const PRIME64_2: u64 = 0xc2b2ae3d27d4eb4f;
const PRIME64_3: u64 = 0x165667b19e3779f9;
const PRIME64_4: u64 = 0x85ebca77c2b2ae63;
const PRIME64_5: u64 = 0x27d4eb2f165667c5;
const PRIME_MX1: u64 = 0x165667919e3779f9;
const PRIME_MX2: u64 = 0x9fb21c651e98df25;

const SECRET_BYTES: i32 = 192;
const STRIPE_BYTES: i32 = 64;
const SECRET_CONSUME_RATE: i32 = 8;
const STRIPES_PER_BLOCK: i32 = (SECRET_BYTES - STRIPE_BYTES) / SECRET_CONSUME_RATE;
const BLOCK_BYTES: i32 = STRIPE_BYTES * STRIPES_PER_BLOCK;

/** The default secret, 192 bytes. */
const SECRET: usize = memory.data<u8>([
  0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
  0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
  0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
  0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
  0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
  0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
  0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
  0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
  0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
  0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
  0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
  0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
]);

/** The eight accumulators of a long input. */
const ACC: usize = memory.data(64, 16);

/** Where the host may write its input: past the static data, 16-byte aligned. */
export function freeAddress(): i32 {
  return <i32>((__heap_base + 15) & ~15);
}

@inline function read64(p: usize): u64 {
  return load<u64>(p);
}

@inline function read32(p: usize): u64 {
  return <u64>load<u32>(p);
}

/** The low and high halves of the 128-bit product, xored. */
@inline function mulFold64(a: u64, b: u64): u64 {
  const aLo = a & 0xffffffff;
  const aHi = a >> 32;
  const bLo = b & 0xffffffff;
  const bHi = b >> 32;
  const loLo = aLo * bLo;
  const hiLo = aHi * bLo;
  const loHi = aLo * bHi;
  const hiHi = aHi * bHi;
  const cross = (loLo >> 32) + (hiLo & 0xffffffff) + loHi;
  const upper = (hiLo >> 32) + (cross >> 32) + hiHi;
  const lower = (cross << 32) | (loLo & 0xffffffff);
  return lower ^ upper;
}

@inline function avalanche(h: u64): u64 {
  h ^= h >> 37;
  h *= PRIME_MX1;
  return h ^ (h >> 32);
}

@inline function avalanche64(h: u64): u64 {
  h ^= h >> 33;
  h *= PRIME64_2;
  h ^= h >> 29;
  h *= PRIME64_3;
  return h ^ (h >> 32);
}

@inline function rrmxmx(h: u64, length: u64): u64 {
  h ^= rotl<u64>(h, 49) ^ rotl<u64>(h, 24);
  h *= PRIME_MX2;
  h ^= (h >> 35) + length;
  h *= PRIME_MX2;
  return h ^ (h >> 28);
}

@inline function mix16(input: usize, secret: usize): u64 {
  return mulFold64(read64(input) ^ read64(secret), read64(input + 8) ^ read64(secret + 8));
}

/** XXH3-64 of the `length` bytes at `address`. */
export function hash(address: i32, length: i32): u64 {
  const p = <usize>address;
  const len = <u64>length;
  if (length <= 16) {
    if (length > 8) {
      const lo = read64(p) ^ (read64(SECRET + 24) ^ read64(SECRET + 32));
      const hi = read64(p + length - 8) ^ (read64(SECRET + 40) ^ read64(SECRET + 48));
      return avalanche(len + bswap<u64>(lo) + hi + mulFold64(lo, hi));
    }
    if (length >= 4) {
      const input = read32(p + length - 4) + (read32(p) << 32);
      return rrmxmx(input ^ (read64(SECRET + 8) ^ read64(SECRET + 16)), len);
    }
    if (length > 0) {
      const c1 = <u64>load<u8>(p);
      const c2 = <u64>load<u8>(p + (length >> 1));
      const c3 = <u64>load<u8>(p + length - 1);
      const combined = (c1 << 16) | (c2 << 24) | c3 | (len << 8);
      return avalanche64(combined ^ (read32(SECRET) ^ read32(SECRET + 4)));
    }
    return avalanche64(read64(SECRET + 56) ^ read64(SECRET + 64));
  }
  if (length <= 128) {
    let acc = len * PRIME64_1;
    if (length > 32) {
      if (length > 64) {
        if (length > 96) {
          acc += mix16(p + 48, SECRET + 96);
          acc += mix16(p + length - 64, SECRET + 112);
        }
        acc += mix16(p + 32, SECRET + 64);
        acc += mix16(p + length - 48, SECRET + 80);
      }
      acc += mix16(p + 16, SECRET + 32);
      acc += mix16(p + length - 32, SECRET + 48);
    }
    acc += mix16(p, SECRET);
    acc += mix16(p + length - 16, SECRET + 16);
    return avalanche(acc);
  }
  if (length <= 240) {
    let acc = len * PRIME64_1;
    for (let i = 0; i < 8; i++) acc += mix16(p + 16 * i, SECRET + 16 * i);
    acc = avalanche(acc);
    const rounds = length / 16;
    // Rounds past the eighth read the secret from byte 3 on; the last 16 bytes from 136 - 17.
    for (let i = 8; i < rounds; i++) acc += mix16(p + 16 * i, SECRET + 16 * (i - 8) + 3);
    acc += mix16(p + length - 16, SECRET + 136 - 17);
    return avalanche(acc);
  }
  return hashLong(p, length);
}

@inline function accumulateStripe(input: usize, secret: usize): void {
  for (let i: usize = 0; i < 8; i++) {
    const value = read64(input + 8 * i);
    const key = value ^ read64(secret + 8 * i);
    store<u64>(ACC + 8 * (i ^ 1), load<u64>(ACC + 8 * (i ^ 1)) + value);
    store<u64>(ACC + 8 * i, load<u64>(ACC + 8 * i) + (key & 0xffffffff) * (key >> 32));
  }
}

function accumulate(input: usize, stripes: i32): void {
  for (let n = 0; n < stripes; n++) accumulateStripe(input + n * STRIPE_BYTES, SECRET + n * SECRET_CONSUME_RATE);
}

function scramble(secret: usize): void {
  for (let i: usize = 0; i < 8; i++) {
    let acc = load<u64>(ACC + 8 * i);
    acc ^= acc >> 47;
    acc ^= read64(secret + 8 * i);
    store<u64>(ACC + 8 * i, acc * PRIME32_1);
  }
}

function hashLong(p: usize, length: i32): u64 {
  store<u64>(ACC, PRIME32_3);
  store<u64>(ACC + 8, PRIME64_1);
  store<u64>(ACC + 16, PRIME64_2);
  store<u64>(ACC + 24, PRIME64_3);
  store<u64>(ACC + 32, PRIME64_4);
  store<u64>(ACC + 40, PRIME32_2);
  store<u64>(ACC + 48, PRIME64_5);
  store<u64>(ACC + 56, PRIME32_1);
  const blocks = (length - 1) / BLOCK_BYTES;
  for (let n = 0; n < blocks; n++) {
    accumulate(p + n * BLOCK_BYTES, STRIPES_PER_BLOCK);
    scramble(SECRET + SECRET_BYTES - STRIPE_BYTES);
  }
  const stripes = (length - 1 - BLOCK_BYTES * blocks) / STRIPE_BYTES;
  accumulate(p + blocks * BLOCK_BYTES, stripes);
  // The last stripe, ending at the input's end, with the secret from 192 - 64 - 7.
  accumulateStripe(p + length - STRIPE_BYTES, SECRET + SECRET_BYTES - STRIPE_BYTES - 7);
  let result = <u64>length * PRIME64_1;
  for (let i: usize = 0; i < 4; i++) {
    result += mulFold64(load<u64>(ACC + 16 * i) ^ read64(SECRET + 11 + 16 * i), load<u64>(ACC + 16 * i + 8) ^ read64(SECRET + 11 + 16 * i + 8));
  }
  return avalanche(result);
}
