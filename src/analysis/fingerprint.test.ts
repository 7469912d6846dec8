import assert from 'node:assert/strict';
import { test } from 'node:test';
import { xxh3 } from '@node-rs/xxhash';
import { fingerprint, type FingerprintParts } from './fingerprint.js';

const card: FingerprintParts = {
  kind: 'error',
  endpointService: 'checkout',
  endpointName: 'POST /orders',
  rcService: 'payments',
  rcSpanName: 'charge card',
  rcMessage: 'card 4242 declined',
};

test('fingerprint: xxh3-64 of the empty input is the reference value', () => {
  assert.equal(xxh3.xxh64(Buffer.alloc(0)), 0x2d06800538d394c2n);
});

test('fingerprint: matches the reference xxh3 (libxxhash 0.8.1) over the six zero-terminated parts', () => {
  // XXH3_64bits("error\0checkout\0POST /orders\0payments\0charge card\0card <*> declined\0"),
  // computed with the C library, not with the package under test.
  assert.equal(fingerprint(card), '2725564770491675788');
});

test('fingerprint: is an unsigned decimal string', () => {
  for (let i = 0; i < 64; i++) assert.match(fingerprint({ ...card, rcSpanName: `op ${String.fromCharCode(97 + (i % 26))}${i}` }), /^[0-9]{1,20}$/);
});

test('fingerprint: numbers in the message do not change it', () => {
  assert.equal(fingerprint(card), fingerprint({ ...card, rcMessage: 'card 5555 declined' }));
  assert.equal(fingerprint(card), fingerprint({ ...card, rcMessage: 'card 0.5 declined' }));
});

test('fingerprint: the same failure from two endpoints gives two fingerprints', () => {
  assert.notEqual(fingerprint(card), fingerprint({ ...card, endpointName: 'POST /subscriptions' }));
  assert.notEqual(fingerprint(card), fingerprint({ ...card, endpointService: 'billing' }));
});

test('fingerprint: parts are separated, so shifting text between parts changes it', () => {
  assert.notEqual(
    fingerprint({ ...card, rcService: 'pay', rcSpanName: 'mentscharge card' }),
    fingerprint({ ...card, rcService: 'payments', rcSpanName: 'charge card' }),
  );
});

test('fingerprint: a slow story ignores its message and differs from an error story', () => {
  const slow: FingerprintParts = { ...card, kind: 'slow', rcMessage: 'anything' };
  assert.equal(fingerprint(slow), fingerprint({ ...slow, rcMessage: 'slow' }));
  assert.notEqual(fingerprint(slow), fingerprint({ ...card, rcMessage: 'slow' }));
});
