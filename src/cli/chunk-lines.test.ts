import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fingerprintRange } from '../mining/masking.js';
import { allBlocksDone, BLOCK_LINES, fingerprintClaimedBlocks, lineRanges, shareLines, viewSharedLines } from './chunk-lines.js';

const MASK = { keepHttpStatus: true };

function textOf(lines: number): string {
  let text = '';
  for (let i = 0; i < lines; i++) text += i % 3 === 0 ? `user ${i} logged in from 10.0.0.${i % 256}\r\n` : i % 3 === 1 ? '\n' : `job ${i} done in ${i % 50} ms\n`;
  return text;
}

test('line ranges leave out the newline and an \\r before it, whatever the chunk size', () => {
  assert.deepEqual([...lineRanges('a\r\nbc\n\n')], [0, 1, 3, 5, 6, 6]);
  // Larger than the first scratch array: it grows.
  const text = '\n'.repeat(100_000);
  const ranges = lineRanges(text);
  assert.equal(ranges.length, 200_000);
  assert.deepEqual([...ranges.subarray(-2)], [99_999, 99_999]);
});

test('shared lines: one claimer fingerprints every block, as fingerprintRange would, and finishes the last', () => {
  const text = textOf(3 * BLOCK_LINES + 5);
  const shared = shareLines(text);
  assert.deepEqual(shared.ranges, lineRanges(text));
  assert.equal(allBlocksDone(shared), false);
  assert.equal(fingerprintClaimedBlocks(text, shared, MASK), true);
  assert.equal(allBlocksDone(shared), true);
  for (let line = 0; line < shared.lineCount; line++) {
    assert.equal(shared.fingerprints[line], fingerprintRange(text, shared.ranges[2 * line] as number, shared.ranges[2 * line + 1] as number, MASK), `line ${line}`);
  }
  // Nothing is left to claim: a second claimer neither writes nor finishes anything.
  assert.equal(fingerprintClaimedBlocks(text, viewSharedLines(shared.buffer, shared.lineCount), MASK), false);
});

test('shared lines: a block claimed elsewhere is left to its claimer, who then finishes the chunk', () => {
  const text = textOf(2 * BLOCK_LINES);
  const shared = shareLines(text);
  // Another thread claimed the first block (the claim counter is the first control slot).
  Atomics.add(shared.control, 0, 1);
  assert.equal(fingerprintClaimedBlocks(text, shared, MASK), false);
  assert.equal(allBlocksDone(shared), false);
  assert.equal(shared.fingerprints[0], 0, 'the claimed block is not written here');
  assert.notEqual(shared.fingerprints[BLOCK_LINES], 0);
  // The other thread finishes its block: its count completes the chunk.
  Atomics.add(shared.control, 1, 1);
  assert.equal(allBlocksDone(shared), true);
});
