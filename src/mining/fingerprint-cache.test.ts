import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FINGERPRINT_CACHE_ENTRIES, FingerprintCache } from './fingerprint-cache.js';

const entry = (fingerprint: number) => ({ fingerprint, value: `v${fingerprint}` });

test('the cache holds at most its capacity and keeps recently used entries', () => {
  assert.equal(FINGERPRINT_CACHE_ENTRIES, 10_000);
  const cache = new FingerprintCache<ReturnType<typeof entry>>(100);
  for (let i = 0; i < 1000; i++) {
    cache.set(entry(i));
    // Entry 0 is used all along: it survives every generation change.
    assert.equal(cache.get(0)?.value, 'v0');
    assert.ok(cache.size <= 100);
  }
  assert.equal(cache.get(1), undefined);
  assert.equal(cache.get(999)?.value, 'v999');
});

test('fingerprints that share their low bits are told apart', () => {
  const cache = new FingerprintCache<ReturnType<typeof entry>>(100);
  const a = 5;
  const b = 5 + 2 ** 40; // same low 30 bits
  cache.set(entry(a));
  assert.equal(cache.get(b), undefined);
  cache.set(entry(b));
  assert.equal(cache.get(b)?.value, `v${b}`);
  assert.equal(cache.get(a), undefined);
});
