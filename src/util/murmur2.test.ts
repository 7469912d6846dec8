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

test('a key lands on the partition its own UTF-8 bytes hash to, for ASCII, non-ASCII, lone surrogates and long keys', () => {
  const keys = [
    '',
    'a',
    'ab',
    'abc',
    'abcd',
    'abcde',
    '0af7651916cd43dd8448eb211c80319c',
    'checkout',
    'é',
    'ü-service',
    '日本語のサービス',
    '😀',
    'a😀b',
    '\ud800',
    'x\udc00y',
    '\u0000\u007f\u0080\u07ff\u0800\uffff',
  ];
  for (let i = 0; i < 500; i++) {
    let key = '';
    for (let j = 0; j < i % 97; j++) key += String.fromCharCode((i * 7919 + j * 104729) % (i % 3 === 0 ? 0x80 : 0x10000));
    keys.push(key);
  }
  // Longer than the scratch buffer starts and than its largest size.
  keys.push('k'.repeat(300), 'é'.repeat(300), '日'.repeat(30_000), 'z'.repeat(70_000));
  // Short again after long ones: the grown buffer's stale tail must not count.
  keys.push('abc', 'é');
  for (const key of keys) {
    for (const partitions of [1, 2, 7, 12]) {
      assert.equal(partitionForKey(key, partitions), (murmur2(Buffer.from(key, 'utf8')) & 0x7fffffff) % partitions, JSON.stringify(key.slice(0, 20)));
    }
  }
});
