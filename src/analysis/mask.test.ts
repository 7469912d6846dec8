import assert from 'node:assert/strict';
import { test } from 'node:test';
import { maskMessage } from './mask.js';

const cases: [string, string, string][] = [
  ['a UUID', 'order 3f2b8c1e-9a4d-4e2f-8b1c-0d9e8f7a6b5c not found', 'order <*> not found'],
  ['an upper-case UUID', 'id 3F2B8C1E-9A4D-4E2F-8B1C-0D9E8F7A6B5C', 'id <*>'],
  ['a hex run without 0x', 'txn deadbeefcafe failed', 'txn <*> failed'],
  ['a hex run of exactly 8', 'ref abcdef01', 'ref <*>'],
  ['a hex run with 0x', 'bad pointer 0x7ffee4b2c9a0', 'bad pointer <*>'],
  ['a short 0x literal is a number', 'flags 0x1f', 'flags <*>'],
  ['a 7-letter hex-like word stays', 'defaced record', 'defaced record'],
  ['an integer', 'timeout after 3000 ms', 'timeout after <*> ms'],
  ['a decimal', 'took 2.45 s', 'took <*> s'],
  ['a number inside a word', 'user42 denied', 'user<*> denied'],
  ['several', 'retry 3 of 5 after 0.5s', 'retry <*> of <*> after <*>s'],
  ['a word is left alone', 'connection refused', 'connection refused'],
];

for (const [name, input, expected] of cases) {
  test(`mask message: ${name}`, () => assert.equal(maskMessage(input), expected));
}
