import { test } from 'node:test';
import assert from 'node:assert/strict';
import { templateLevelScores } from './loghub2-metrics.test-support.js';

const same = (t: string): string => t;

test('FGA counts groups, not lines: a split rare event costs as much as a split frequent one', () => {
  // True events: A (4 lines), B (1 line), C (1 line).
  const truth = ['A', 'A', 'A', 'A', 'B', 'C'];
  const truthTemplates = ['a <*>', 'a <*>', 'a <*>', 'a <*>', 'b', 'c'];
  // All right: 3 of 3 groups.
  assert.deepEqual(templateLevelScores(['x', 'x', 'x', 'x', 'y', 'z'], ['a <*>', 'a <*>', 'a <*>', 'a <*>', 'b', 'c'], truth, truthTemplates, same), {
    fga: 1,
    fta: 1,
  });
  // B and C merged: 1 of 2 predicted groups right, 1 of 3 events found.
  const merged = templateLevelScores(['x', 'x', 'x', 'x', 'y', 'y'], ['a <*>', 'a <*>', 'a <*>', 'a <*>', '<*>', '<*>'], truth, truthTemplates, same);
  assert.equal(merged.fga, (2 * 0.5 * (1 / 3)) / (0.5 + 1 / 3));
  // A split in two: B and C right out of 4 predicted groups.
  const split = templateLevelScores(['x', 'x', 'w', 'w', 'y', 'z'], ['a 1', 'a 1', 'a 2', 'a 2', 'b', 'c'], truth, truthTemplates, same);
  assert.equal(split.fga, (2 * 0.5 * (2 / 3)) / (0.5 + 2 / 3));
});

test('FTA needs the right group and the right template', () => {
  const truth = ['A', 'A', 'B'];
  const truthTemplates = ['open <*>', 'open <*>', 'close'];
  // Groups right, A's template too literal: 1 of 2 templates right.
  const scores = templateLevelScores(['x', 'x', 'y'], ['open 1', 'open 1', 'close'], truth, truthTemplates, same);
  assert.equal(scores.fga, 1);
  assert.equal(scores.fta, 0.5);
  // The normalisation applies to both sides.
  const loose = templateLevelScores(['x', 'x', 'y'], ['open <*>:<*>', 'open <*>:<*>', 'close'], truth, truthTemplates, (t) => t.replace('<*>:<*>', '<*>'));
  assert.equal(loose.fta, 1);
  assert.throws(() => templateLevelScores(['x'], ['t'], [], [], same));
  assert.deepEqual(templateLevelScores([], [], [], [], same), { fga: 1, fta: 1 });
});
