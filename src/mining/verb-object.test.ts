import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isVerbObject } from './verb-object.js';
import { DrainTree } from './drain.js';
import { maskLine } from './masking.js';

test('the word after a capitalized verb is its object when a preposition or conjunction follows', () => {
  assert.equal(isVerbObject('Disconnect', 'primary', 'users', 'because', 10), true);
  assert.equal(isVerbObject('Retrying', 'source', 'mirror', 'consumer', 10), false);
  assert.equal(isVerbObject('disconnect', 'primary', 'users', 'because', 10), false);
  assert.equal(isVerbObject('Disconnect', 'Primary', 'users', 'because', 10), false);
  assert.equal(isVerbObject('Disconnect', 'primary', 'users', 'because', 4), false);
  assert.equal(isVerbObject('Cache', 'warmed', 'cooled', 'for', 10), false);
});

test("lines of one event differing in the verb's object join; a longer object keeps its events apart", () => {
  const tree = new DrainTree('ioredis', { simThreshold: 0.5, maxClusters: 100 });
  const add = (text: string): string => tree.add(maskLine(text, { keepHttpStatus: true }).tokens, text).cluster.id;
  const disconnect = new Set(['primary', 'users', 'nobody'].map((who) => add(`Disconnect ${who} because the node does not hold any slot`)));
  assert.equal(disconnect.size, 1);
  const stream = add('Adding stream export orders for checkout');
  const service = add('Adding service export orders for checkout');
  assert.notEqual(stream, service);
});
