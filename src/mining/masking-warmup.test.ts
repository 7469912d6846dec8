import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fingerprintLine, maskLine } from './masking.js';
import { warmUpMasking } from './masking-warmup.js';

const LINES = [
  'GET /a HTTP/1.1" 200 12',
  'blk_-42 served to 10.0.0.1:50010',
  'Jan 3 user=7 took 2.1 KB',
  Array.from({ length: 80 }, (_, i) => `t${i}`).join(' '),
];

function results(): unknown[] {
  return [true, false].flatMap((keepHttpStatus) => LINES.map((line) => [fingerprintLine(line, { keepHttpStatus }), maskLine(line, { keepHttpStatus })]));
}

test('warming the scanner up changes no mask and no fingerprint, however often it runs', () => {
  const cold = results();
  warmUpMasking();
  warmUpMasking();
  assert.deepEqual(results(), cold);
});
