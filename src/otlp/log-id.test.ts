import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AttrPair, AttrValue } from '../model/signals.js';
import { xxh3 } from '../util/xxhash.js';
import { canonicalLogContent, logIdHash, logIdOf, type LogIdFields } from './log-id.js';

/** The id as it was first defined: the native hash of the canonical string, in decimal. */
const referenceId = (row: LogIdFields) => xxh3.xxh64(canonicalLogContent(row)).toString();

const base: LogIdFields = {
  serviceName: 'checkout',
  tsNs: 1_765_000_000_123_456_789n,
  observedTsNs: 1_765_000_000_223_456_789n,
  traceId: '0af7651916cd43dd8448eb211c80319c',
  spanId: 'b7ad6b7169203331',
  severityNumber: 9,
  severityText: 'INFO',
  body: 'order 42 placed',
  attrs: [],
};

/** Texts that end or start with what UTF-8 must replace or widen, beside every kind of separator. */
const TEXTS = ['', 'a', 'é', '日本', '\u{1F600}', 'x\uD800', '\uDC00y', '\uD800', '\uDFFF\uD800', 'a\u0000b', '\u007f\u0080\u07ff\u0800\uffff', ':,;1'];
const NUMBERS = [
  0,
  -0,
  1,
  -1,
  7.5,
  -2.25,
  1e21,
  1e-7,
  2 ** 53,
  -(2 ** 53) - 2,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
  NaN,
  Infinity,
  -Infinity,
  255,
  4294967296,
];

test('the id is the native hash of the canonical string, for every kind of text, number and value', () => {
  const rows: LogIdFields[] = [base];
  for (const text of TEXTS) {
    rows.push({ ...base, serviceName: text }, { ...base, severityText: text }, { ...base, body: text }, { ...base, traceId: text, spanId: text });
    rows.push({ ...base, attrs: [[text, text]] }, { ...base, attrs: [[text, { [text]: [text, text] }]] });
  }
  for (const n of NUMBERS)
    rows.push(
      { ...base, severityNumber: n },
      {
        ...base,
        attrs: [
          ['n', n],
          ['list', [n, -n]],
        ],
      },
    );
  for (const ns of [0n, 1n, 2n ** 63n, 2n ** 64n - 1n, 2n ** 64n, -1n, -(2n ** 70n)]) rows.push({ ...base, tsNs: ns, observedTsNs: ns });
  const nested: AttrValue = { a: [1, 'x', null, true, false, { b: [[]], c: {} }], '': 'empty key' };
  rows.push({
    ...base,
    attrs: [
      ['k', nested],
      ['k', null],
      ['t', true],
      ['f', false],
      ['empty', []],
      ['map', {}],
    ],
  });
  for (const row of rows) {
    assert.equal(
      logIdOf(row),
      referenceId(row),
      JSON.stringify(row, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v)),
    );
    assert.equal(logIdHash(row).toString(), logIdOf(row));
  }
});

test('random records hash as the reference does, around every growth of the scratch memory and past its limit', () => {
  let state = 99;
  const next = (n: number) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state % n;
  };
  const pieces = ['a', 'Zz', ' ', 'é', '€', '\u{10348}', '\uD83D', '0', '"', '\n'];
  const text = (maxPieces: number) => Array.from({ length: next(maxPieces) }, () => pieces[next(pieces.length)]).join('');
  const value = (depth: number): AttrValue => {
    switch (next(depth > 2 ? 4 : 6)) {
      case 0:
        return text(20);
      case 1:
        return next(2) === 0 ? next(100_000) - 50_000 : next(1000) / 7;
      case 2:
        return next(2) === 0;
      case 3:
        return null;
      case 4:
        return Array.from({ length: next(4) }, () => value(depth + 1));
      default:
        return Object.fromEntries(Array.from({ length: next(4) }, () => [text(5), value(depth + 1)]));
    }
  };
  for (let i = 0; i < 400; i++) {
    const attrs: AttrPair[] = Array.from({ length: next(8) }, () => [text(6), value(0)]);
    // Bodies up to 3 MB: the scratch grows, then the largest go past its limit and are hashed the plain way.
    const bodyBytes = i % 50 === 0 ? 1 + next(3_000_000) : next(600);
    const row = { ...base, body: text(4) + 'x'.repeat(bodyBytes), severityNumber: next(25), attrs };
    assert.equal(logIdOf(row), referenceId(row), `record ${i}`);
  }
});
