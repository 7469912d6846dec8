import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RowBinaryWriter } from './row-binary.js';

/** The reference: a String as the engine reads it, a LEB128 length and the UTF-8 bytes, made the plain way. */
function referenceString(text: string): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const length: number[] = [];
  let n = bytes.length;
  while (n >= 0x80) {
    length.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  length.push(n);
  return Buffer.concat([Buffer.from(length), bytes]);
}

const STRINGS = [
  '',
  'a',
  'http.route',
  '/api/orders/:id',
  'quote " and backslash \\ and slash /',
  'C:\\path\\only backslashes',
  'only "quotes"',
  'controls \u0000\u0001\u0007\b\t\n\u000b\f\r\u001b\u001f\u007f',
  'unit separator \u001f only',
  'é',
  'naïve café',
  '日本語',
  '😀 emoji',
  'lone high \ud800 end',
  'lone low \udc00',
  '\ud83d',
  'line\u2028sep\u2029',
  '\u0080\u07ff\u0800\uffff',
];

/** Every length class of the LEB128 length (1, 2 and 3 bytes) and of the old short-string path, ASCII and not. */
function sizedStrings(): string[] {
  const out: string[] = [];
  for (const n of [41, 42, 43, 126, 127, 128, 129, 200, 16_383, 16_384, 16_385, 70_000]) {
    out.push('x'.repeat(n), 'é'.repeat(n), '日'.repeat(Math.ceil(n / 3)), `${'y'.repeat(n - 1)}"`);
  }
  return out;
}

const NUMBERS = [
  0,
  -0,
  1,
  -1,
  7,
  10,
  99,
  100,
  2_147_483_647,
  -2_147_483_648,
  2_147_483_648,
  -2_147_483_649,
  2 ** 53,
  -(2 ** 53),
  2 ** 53 + 2,
  1e21,
  1e-7,
  0.5,
  -0.25,
  0.1 + 0.2,
  1.5e300,
  5e-324,
  Number.MAX_VALUE,
  NaN,
  Infinity,
  -Infinity,
  123456789.123,
];

/** Attribute lists of every value shape, with marks, nested lists and maps. */
function attributeShapes(): unknown[] {
  const shapes: unknown[] = [
    [],
    [['k', 'v']],
    [
      ['empty list', []],
      ['empty map', {}],
    ],
  ];
  for (const s of [...STRINGS, ...sizedStrings()]) shapes.push([[s, s]], [['k', s, 'b']]);
  for (const n of NUMBERS) shapes.push([['n', n]], [['n', n, 'd']]);
  shapes.push(
    [
      ['bool', true],
      ['false', false],
      ['null', null],
      ['big', '18446744073709551615', 'i'],
      ['neg big', '-9223372036854775808', 'i'],
    ],
    [['list', [1, 'two', 3.5, true, null, [], {}, ['nested', [['deep']]]], [null, null, 'd']]],
    [['map', { b: 1, a: 'x', 10: 'ten', 2: 'two', '': 'empty key', 'é"\n': { inner: [1, { x: null }] } }, { b: 'i' }]],
    [['sparse', [1, , 3]]],
    [['undefined item', [undefined, 1]]],
    [['map with undefined', { a: undefined, b: 1, c: undefined }]],
    [['only undefined', { a: undefined }]],
    [['null proto', Object.assign(Object.create(null) as object, { z: 1, y: [2] })]],
  );
  // Generated nests: lists in maps in lists, every leaf kind.
  const leaves: unknown[] = ['s', '', 'ü', '\t', 0, -3, 0.75, 1e100, true, false, null];
  let seed = 1;
  const next = (n: number) => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed % n;
  };
  const build = (depth: number): unknown => {
    const kind = depth === 0 ? 0 : next(3);
    if (kind === 0) return leaves[next(leaves.length)];
    if (kind === 1) return Array.from({ length: next(4) }, () => build(depth - 1));
    return Object.fromEntries(Array.from({ length: next(4) }, (_, i) => [`${STRINGS[next(STRINGS.length)]}${i}`, build(depth - 1)]));
  };
  for (let i = 0; i < 300; i++) shapes.push(Array.from({ length: next(12) }, (_, j) => [`key${j}`, build(4)]));
  return shapes;
}

test('json() writes byte for byte the String of JSON.stringify(value), for attributes of every shape', () => {
  let checked = 0;
  for (const shape of attributeShapes()) {
    const out = new RowBinaryWriter(16); // small, so that growing mid-value is exercised too
    out.json(shape);
    assert.deepEqual(out.finish(), referenceString(JSON.stringify(shape)), JSON.stringify(shape).slice(0, 80));
    checked++;
  }
  assert.ok(checked > 400);
});

test('json() rejects what is not JSON data rather than writing something else', () => {
  assert.throws(() => new RowBinaryWriter().json([['k', 1n]]), TypeError);
  assert.throws(() => new RowBinaryWriter().json(undefined), TypeError);
});

test('string() writes a LEB128 length and the UTF-8 bytes, for every length class, ASCII or not', () => {
  for (const text of [...STRINGS, ...sizedStrings()]) {
    const out = new RowBinaryWriter(8);
    out.string(text);
    assert.deepEqual(out.finish(), referenceString(text), JSON.stringify(text.slice(0, 20)));
  }
});

test('a shared value written again is copied byte for byte, also after the buffer grew, and another object is encoded', () => {
  const out = new RowBinaryWriter(8);
  out.string('before');
  const resource = [
    ['service.name', 'checkout'],
    ['host', 'é'.repeat(100)],
  ];
  const other = [['service.name', 'cart']];
  out.jsonOfShared(resource);
  out.uint8(7);
  out.jsonOfShared(resource);
  out.string('x'.repeat(300));
  out.jsonOfShared(resource);
  out.jsonOfShared(other);
  // An equal copy is another object: its JSON is written afresh, with the same bytes.
  out.jsonOfShared(structuredClone(other));
  const json = (value: unknown) => referenceString(JSON.stringify(value));
  const expected = Buffer.concat([
    referenceString('before'),
    json(resource),
    Buffer.from([7]),
    json(resource),
    referenceString('x'.repeat(300)),
    json(resource),
    json(other),
    json(other),
  ]);
  assert.deepEqual(out.finish(), expected);
});

test('uint64Decimal() writes what uint64(BigInt(text)) writes, modulo 2^64, and refuses what is not 1 to 20 digits', () => {
  const texts = ['0', '1', '9', '10', '123456789', '1234567890', '4294967295', '4294967296', '9007199254740991', '9007199254740993'];
  texts.push('18446744073709551615', '18446744073709551616', '99999999999999999999', '00000000000000000001', '10000000000000000000');
  let seed = 7n;
  for (let i = 0; i < 2000; i++) {
    seed = (seed * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n;
    texts.push((seed >> BigInt(i % 64)).toString());
  }
  for (const text of texts) {
    const fast = new RowBinaryWriter(4);
    assert.equal(fast.uint64Decimal(text), true);
    const slow = new RowBinaryWriter(4);
    slow.uint64(BigInt(text));
    assert.deepEqual(fast.finish(), slow.finish(), text);
  }
  for (const text of ['', '-1', '1a', 'a1', ' 1', '1 ', '1.5', '123456789012345678901', '１']) {
    const out = new RowBinaryWriter(4);
    assert.equal(out.uint64Decimal(text), false, text);
    assert.equal(out.finish().length, 0);
  }
});

test('int64() and uint64() write 8 bytes little endian, modulo 2^64, across a growth of the buffer', () => {
  const values = [
    0n,
    1n,
    -1n,
    2n ** 63n - 1n,
    -(2n ** 63n),
    2n ** 63n,
    2n ** 64n - 1n,
    2n ** 64n,
    2n ** 64n + 5n,
    -(2n ** 64n) - 3n,
    1_765_000_000_123_456_789n,
  ];
  // A small initial buffer: later values land in grown ones.
  const out = new RowBinaryWriter(4);
  const expected: Buffer[] = [];
  for (const value of values) {
    out.int64(value);
    out.uint64(value);
    const signed = Buffer.alloc(8);
    signed.writeBigInt64LE(BigInt.asIntN(64, value));
    const unsigned = Buffer.alloc(8);
    unsigned.writeBigUInt64LE(BigInt.asUintN(64, value));
    expected.push(signed, unsigned);
  }
  assert.deepEqual(out.finish(), Buffer.concat(expected));
});
