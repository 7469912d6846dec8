import { test } from 'node:test';
import assert from 'node:assert/strict';
import { groupingAccuracy } from './accuracy.test-support.js';

test('grouping accuracy counts a line only when its predicted group equals its true group', () => {
  // Truth groups: A = {0,1,2}, B = {3,4}, C = {5}.
  const truth = ['A', 'A', 'A', 'B', 'B', 'C'];
  assert.equal(groupingAccuracy(['x', 'x', 'x', 'y', 'y', 'z'], truth), 1);
  // B and C merged: only A's three lines are right.
  assert.equal(groupingAccuracy(['x', 'x', 'x', 'y', 'y', 'y'], truth), 3 / 6);
  // A split: B and C right.
  assert.equal(groupingAccuracy(['x', 'x', 'w', 'y', 'y', 'z'], truth), 3 / 6);
  // Label names do not matter.
  assert.equal(groupingAccuracy(['1', '1', '1', '2', '2', '3'], truth), 1);
  assert.equal(groupingAccuracy([], []), 1);
  assert.throws(() => groupingAccuracy(['x'], []));
});
