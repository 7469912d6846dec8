/**
 * Kafka's default partitioner hash (murmur2, seed 0x9747b28c), so that the embedded bus places a
 * key in the same partition as a Kafka producer would.
 */
export function murmur2(data: Uint8Array): number {
  const length = data.length;
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

/** The partition Kafka's default partitioner picks for a keyed record. */
export function partitionForKey(key: string, partitions: number): number {
  return (murmur2(Buffer.from(key, 'utf8')) & 0x7fffffff) % partitions;
}
