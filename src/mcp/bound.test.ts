import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clip, fitList, jsonBytes, MAX_ANSWER_BYTES, MAX_SUMMARY_BYTES, toolAnswer } from './bound.js';
import { exactValues, nsToMs } from './exact.js';

test('fitList keeps the longest prefix that fits and says how to narrow', () => {
  const items = Array.from({ length: 1000 }, (_, i) => ({ id: i, text: 'x'.repeat(100) }));
  const { answer, shown } = fitList(items, (rows, truncated) => ({ rows, ...(truncated ? { truncated } : {}) }), 'rows', 'narrow it', 5_000);
  assert.ok(jsonBytes(answer) <= 5_000);
  assert.ok(shown > 30 && shown < 50, String(shown));
  assert.deepEqual(answer.truncated, { field: 'rows', shown, total: 1000, hint: 'narrow it' });
  // One more item would not have fitted.
  assert.ok(jsonBytes({ rows: items.slice(0, shown + 1), truncated: { field: 'rows', shown: shown + 1, total: 1000, hint: 'narrow it' } }) > 5_000);
  const small = fitList(items.slice(0, 3), (rows, truncated) => ({ rows, ...(truncated ? { truncated } : {}) }), 'rows', 'narrow it', 5_000);
  assert.equal(small.shown, 3);
  assert.equal(small.answer.truncated, undefined);
});

test('toolAnswer clips a long summary to its share of the bound', () => {
  const result = toolAnswer({ a: 1 }, 'y'.repeat(10_000));
  const text = (result.content[0] as { text: string }).text;
  assert.ok(Buffer.byteLength(text) <= MAX_SUMMARY_BYTES);
  assert.ok(MAX_SUMMARY_BYTES < MAX_ANSWER_BYTES);
  assert.deepEqual(result.structuredContent, { a: 1 });
});

test('clip cuts long text with an ellipsis', () => {
  assert.equal(clip('abcdef', 4), 'abc…');
  assert.equal(clip('abc', 4), 'abc');
});

test('exactValues turns *_ns values and bigints into exact decimal strings, leaving the rest', () => {
  const body = { ts_ns: 1_795_593_018_858_000_123n, duration_ns: 1500, calls: 3, nested: [{ end_ns: 7n, rate: 0.5 }], big: 2n ** 64n - 1n, name: 'x' };
  assert.deepEqual(exactValues(body), { ts_ns: '1795593018858000123', duration_ns: '1500', calls: 3, nested: [{ end_ns: '7', rate: 0.5 }], big: '18446744073709551615', name: 'x' });
  assert.equal(nsToMs(1_500_000n), 1.5);
  assert.equal(nsToMs('2500000'), 2.5);
});
