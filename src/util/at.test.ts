import { test } from 'node:test';
import assert from 'node:assert/strict';
import { at } from './at.js';

test('at reads an index in range, and throws for one outside it instead of returning undefined', () => {
  const list = ['a', 'b'];
  assert.equal(at(list, 1), 'b');
  assert.equal(at(new Uint8Array([7, 0]), 1), 0);
  assert.throws(() => at(list, 2), { name: 'RangeError', message: 'index 2 outside 0..1' });
  assert.throws(() => at(list, -1), RangeError);
  assert.throws(() => at([], 0), { message: 'index 0 outside 0..-1' });
});
