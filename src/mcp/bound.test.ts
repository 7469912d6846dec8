import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clip, enforceBound, fitList, jsonBytes, MAX_ANSWER_BYTES, MAX_SUMMARY_BYTES, toolAnswer } from './bound.js';
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
  assert.deepEqual(exactValues(body), {
    ts_ns: '1795593018858000123',
    duration_ns: '1500',
    calls: 3,
    nested: [{ end_ns: '7', rate: 0.5 }],
    big: '18446744073709551615',
    name: 'x',
  });
  assert.equal(nsToMs(1_500_000n), 1.5);
  assert.equal(nsToMs('2500000'), 2.5);
});

test('an answer no tool foresaw is shrunk to the bound, ids and *_ns strings kept whole', () => {
  const id = 'a'.repeat(32);
  const huge = {
    trace_id: id,
    start_ns: '1795593018858000123',
    spans: Array.from({ length: 500 }, (_, i) => ({ span_id: id, name: 'n'.repeat(5_000), depth: i })),
  };
  const shrunk = enforceBound(huge, 20_000);
  assert.ok(jsonBytes(shrunk) <= 20_000, String(jsonBytes(shrunk)));
  assert.equal(shrunk.trace_id, id);
  assert.equal(shrunk.start_ns, '1795593018858000123');
  assert.equal((shrunk.spans as { span_id: string }[])[0]?.span_id, id);
  assert.match(String(shrunk.shrunk), /narrow/);
  const small = { a: 'b' };
  assert.equal(enforceBound(small, 20_000), small, 'an answer within the bound is untouched');
  const result = toolAnswer(huge, 'summary');
  assert.ok(jsonBytes(result.structuredContent) + Buffer.byteLength('summary') <= MAX_ANSWER_BYTES);
});
