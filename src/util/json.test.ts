import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseJsonExact, stringifyJson } from './json.js';

test('bigints are written as exact integer literals and read back exactly', () => {
  const value = {
    ts_ns: 1_763_800_000_123_456_789n,
    small: 5,
    list: [18_446_744_073_709_551_615n, -9_007_199_254_740_993n],
    text: 'a,12345678901234567890,b',
    nested: { ok: true, none: null },
  };
  const text = stringifyJson(value);
  assert.equal(
    text,
    '{"ts_ns":1763800000123456789,"small":5,"list":[18446744073709551615,-9007199254740993],"text":"a,12345678901234567890,b","nested":{"ok":true,"none":null}}',
  );
  assert.deepEqual(parseJsonExact(text), value);
});

test('undefined properties are skipped like JSON.stringify, and strings are escaped the same', () => {
  const value = { a: undefined, b: 'quote " backslash \\ newline \n unicode żółw', c: [undefined, 1.5] };
  assert.equal(stringifyJson(value), JSON.stringify(value));
});

test('safe numbers, floats and exponents stay numbers; strings with digits stay strings', () => {
  assert.deepEqual(parseJsonExact('{"a":1e21,"b":-1.5,"c":"99999999999999999999","d":9007199254740991}'), {
    a: 1e21,
    b: -1.5,
    c: '99999999999999999999',
    d: 9007199254740991,
  });
});
