/**
 * Kafka's default partitioner hash (murmur2, seed 0x9747b28c), so that the embedded bus places a
 * key in the same partition as a Kafka producer would.
 */
export function murmur2(data: Uint8Array): number {
  return murmur2Prefix(data, data.length);
}

/** murmur2 of the first `length` bytes of `data`. */
function murmur2Prefix(data: Uint8Array, length: number): number {
  const m = 0x5bd1e995;
  const r = 24;
  let h = (0x9747b28c ^ length) | 0;
  const length4 = length >>> 2;
  for (let i = 0; i < length4; i++) {
    const i4 = i << 2;
    // Indices below `length`: `!` states what the loop bound guarantees, in the hash's hot loop.
    let k = (data[i4]! & 0xff) | ((data[i4 + 1]! & 0xff) << 8) | ((data[i4 + 2]! & 0xff) << 16) | ((data[i4 + 3]! & 0xff) << 24);
    k = Math.imul(k, m);
    k ^= k >>> r;
    k = Math.imul(k, m);
    h = Math.imul(h, m);
    h ^= k;
  }
  const tail = length & ~3;
  const remainder = length % 4;
  // Kafka's switch falls through from 3 to 1; written as ifs for noFallthroughCasesInSwitch.
  if (remainder >= 3) h ^= (data[tail + 2]! & 0xff) << 16;
  if (remainder >= 2) h ^= (data[tail + 1]! & 0xff) << 8;
  if (remainder >= 1) {
    h ^= data[tail]! & 0xff;
    h = Math.imul(h, m);
  }
  h ^= h >>> 13;
  h = Math.imul(h, m);
  h ^= h >>> 15;
  return h | 0;
}

/**
 * A key's UTF-8 bytes are written here rather than into a Buffer of their own: the bus places every
 * record by its key, and a Buffer per record was garbage on the main thread. Grown for longer keys
 * up to MAX_SCRATCH_BYTES; a longer key (none that svc makes) takes a Buffer of its own.
 */
let scratch = Buffer.allocUnsafe(256);
const MAX_SCRATCH_BYTES = 64 * 1024;

/** The partition Kafka's default partitioner picks for a keyed record. */
export function partitionForKey(key: string, partitions: number): number {
  // A UTF-16 unit takes at most 3 UTF-8 bytes (a surrogate pair takes 4 for its 2 units).
  const maxBytes = key.length * 3;
  if (maxBytes > MAX_SCRATCH_BYTES) return (murmur2(Buffer.from(key, 'utf8')) & 0x7fffffff) % partitions;
  if (maxBytes > scratch.length) scratch = Buffer.allocUnsafe(Math.max(maxBytes, scratch.length * 2));
  // Lone surrogates become U+FFFD here as in Buffer.from, so the bytes are the same.
  const length = scratch.write(key, 0, 'utf8');
  return (murmur2Prefix(scratch, length) & 0x7fffffff) % partitions;
}
