import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogOnce } from './log-once.js';

test('each key logs the first time only, and each instance remembers on its own', () => {
  const lines: string[] = [];
  const logOnce = createLogOnce();
  for (const key of ['bad_record', 'analysis', 'bad_record', 'analysis', 'queue_full:a', 'queue_full:b', 'queue_full:a']) logOnce(key, () => lines.push(key));
  assert.deepEqual(lines, ['bad_record', 'analysis', 'queue_full:a', 'queue_full:b']);
  createLogOnce()('bad_record', () => lines.push('another component'));
  assert.equal(lines.at(-1), 'another component');
});
