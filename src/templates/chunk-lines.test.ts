import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lineRanges } from './chunk-lines.js';

test('line ranges leave out the newline and an \\r before it, whatever the chunk size', () => {
  assert.deepEqual([...lineRanges('a\r\nbc\n\n')], [0, 1, 3, 5, 6, 6]);
  // Larger than the first scratch array: it grows.
  const text = '\n'.repeat(100_000);
  const ranges = lineRanges(text);
  assert.equal(ranges.length, 200_000);
  assert.deepEqual([...ranges.subarray(-2)], [99_999, 99_999]);
});
