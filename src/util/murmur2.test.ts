import assert from 'node:assert/strict';
import { test } from 'node:test';
import { murmur2, partitionForKey } from './murmur2.js';

test('murmur2 matches the values Kafka computes', () => {
  // Reference values from Kafka's Utils.murmur2 test vectors.
  assert.equal(murmur2(Buffer.from('21')), -973932308);
  assert.equal(murmur2(Buffer.from('foobar')), -790332482);
  assert.equal(murmur2(Buffer.from('a-little-bit-long-string')), -985981536);
  assert.equal(murmur2(Buffer.from('a-little-bit-longer-string')), -1486304829);
  assert.equal(murmur2(Buffer.from('lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8')), -58897971);
  assert.equal(murmur2(Buffer.from('abc')), 479470107);
});

test("a key goes to its murmur2 hash (sign bit cleared) modulo the partition count, as Kafka's default partitioner does", () => {
  assert.equal(partitionForKey('foobar', 4), (-790332482 & 0x7fffffff) % 4);
  assert.equal(partitionForKey('abc', 7), 479470107 % 7);
});
