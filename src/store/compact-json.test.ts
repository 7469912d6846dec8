import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compactJsonRows, encodeLines, jsonValue } from './compact-json.js';
import { PermanentError } from '../util/retry.js';

describe('compactJsonRows', () => {
  it('writes bigint as exact bare integers and strings as JSON', () => {
    const text = compactJsonRows([
      [18446744073709551615n, -9223372036854775808n, 'a"b\\c\n', true, null, 1.5],
      [[1n, 'x'], { k: 2n }],
    ]);
    assert.equal(text, '[18446744073709551615,-9223372036854775808,"a\\"b\\\\c\\n",true,null,1.5]\n[[1,"x"],{"k":"2"}]\n');
  });

  it('refuses values ClickHouse cannot read', () => {
    assert.throws(() => jsonValue(Number.NaN), PermanentError);
    assert.throws(() => jsonValue(Symbol('x')), PermanentError);
  });
});

describe('encodeLines', () => {
  it('joins every line in order across chunk boundaries', () => {
    const rows = Array.from({ length: 5000 }, (_, i) => i);
    const line = (i: number): string => `[${i},"${'é'.repeat(i % 40)}"]\n`;
    assert.equal(encodeLines(rows, line).toString('utf8'), rows.map(line).join(''));
    assert.equal(encodeLines([], line).length, 0);
  });
});
