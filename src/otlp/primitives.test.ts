import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OtlpDecodeError } from './errors.js';
import { bytesToHex, hex8, isHex, traceIdHex, writeHex } from './hex.js';
import { ProtoReader } from './proto-reader.js';
import { ProtoWriter, int64Size } from './proto-writer.js';
import { varint } from './proto-build.test-support.js';
import { readUtf8, utf8Length, writeUtf8 } from './utf8.js';

const SAMPLES = ['', 'a', 'hello world', 'é', '€', '日本語', '🚀', 'a🚀b', '\ud800', '\udc00x', 'x\ud83d', 'mixed ascii é € 🚀 '.repeat(9), 'y'.repeat(100)];

describe('utf8 helpers', () => {
  it('utf8Length and writeUtf8 agree with Buffer for ASCII, multibyte, pairs and lone surrogates', () => {
    for (const text of SAMPLES) {
      const expected = Buffer.from(text, 'utf8');
      assert.equal(utf8Length(text), expected.length, JSON.stringify(text));
      const out = Buffer.alloc(expected.length + 2);
      assert.equal(writeUtf8(text, out, 1, expected.length), expected.length + 1);
      assert.deepEqual(out.subarray(1, 1 + expected.length), expected, JSON.stringify(text));
    }
  });

  it('readUtf8 returns the right string for every sample, cached or not, repeatedly', () => {
    for (let round = 0; round < 3; round++) {
      for (const text of SAMPLES) {
        const bytes = Buffer.concat([Buffer.from('zz'), Buffer.from(text), Buffer.from('zz')]);
        assert.equal(readUtf8(bytes, 2, bytes.length - 2), Buffer.from(text).toString('utf8'));
      }
    }
  });

  it('readUtf8 tells apart strings that share length, ends and middle bytes', () => {
    const a = Buffer.from('abcdXefgh');
    const b = Buffer.from('abcdYefgh');
    assert.equal(readUtf8(a, 0, a.length), 'abcdXefgh');
    assert.equal(readUtf8(b, 0, b.length), 'abcdYefgh');
    assert.equal(readUtf8(a, 0, a.length), 'abcdXefgh');
  });
});

describe('hex helpers', () => {
  it('converts ids both ways in lowercase and validates hex', () => {
    const bytes = Buffer.from('00ff10abcdef0123456789abcdef0001', 'hex');
    assert.equal(hex8(bytes, 0), '00ff10abcdef0123');
    assert.equal(traceIdHex(bytes, 0), '00ff10abcdef0123456789abcdef0001');
    assert.equal(traceIdHex(Buffer.alloc(16), 0), '0'.repeat(32));
    assert.equal(traceIdHex(bytes, 0), '00ff10abcdef0123456789abcdef0001');
    assert.equal(bytesToHex(bytes, 14, 16), '0001');
    assert.ok(isHex('ABcd09'));
    assert.ok(!isHex('abc'));
    assert.ok(!isHex('gg'));
    const out = new Uint8Array(2);
    writeHex('A0ff', out, 0);
    assert.deepEqual([...out], [0xa0, 0xff]);
  });
});

describe('ProtoReader / ProtoWriter', () => {
  it('reads int64 varints exactly: numbers when safe, decimal strings beyond', () => {
    const cases: [bigint, number | string][] = [
      [0n, 0],
      [1n, 1],
      [127n, 127],
      [128n, 128],
      [2n ** 32n, 2 ** 32],
      [2n ** 53n - 1n, Number.MAX_SAFE_INTEGER],
      [2n ** 53n, '9007199254740992'],
      [2n ** 63n - 1n, '9223372036854775807'],
      [-1n, -1],
      [-(2n ** 53n) + 1n, Number.MIN_SAFE_INTEGER],
      [-(2n ** 53n), '-9007199254740992'],
      [-(2n ** 63n), '-9223372036854775808'],
    ];
    for (const [value, expected] of cases) {
      const bytes = Uint8Array.from(varint(value));
      const reader = new ProtoReader(bytes);
      assert.equal(reader.int64(bytes.length), expected, String(value));
      assert.equal(reader.pos, bytes.length);
    }
  });

  it('writes int64 varints that read back the same, with the sizes it predicts', () => {
    const values = [
      0,
      1,
      127,
      128,
      300,
      2 ** 31,
      2 ** 32 - 1,
      2 ** 32,
      2 ** 35,
      2 ** 42,
      2 ** 49,
      2 ** 52,
      Number.MAX_SAFE_INTEGER,
      -1,
      -300,
      -(2 ** 40),
      Number.MIN_SAFE_INTEGER,
    ];
    for (const value of values) {
      const writer = new ProtoWriter();
      writer.resetPlan();
      writer.startWrite(int64Size(value));
      writer.int64(value);
      const bytes = writer.finish();
      assert.deepEqual([...bytes], varint(BigInt(value)), String(value));
      assert.equal(new ProtoReader(bytes).int64(bytes.length), value);
    }
  });

  it('reads uint32 varints up to 10 bytes and rejects longer or truncated ones', () => {
    const tenBytes = Uint8Array.from(varint(-1n));
    assert.equal(tenBytes.length, 10);
    assert.equal(new ProtoReader(tenBytes).varint32(10), 0xffffffff);
    const eleven = Uint8Array.from([...new Array(10).fill(0xff), 0x01]);
    assert.throws(() => new ProtoReader(eleven).varint32(11), OtlpDecodeError);
    assert.throws(() => new ProtoReader(Uint8Array.from([0xff, 0xff])).varint32(2), OtlpDecodeError);
    assert.throws(() => new ProtoReader(Uint8Array.from([0xff, 0xff])).varint64(2), OtlpDecodeError);
  });

  it('never reads past the end it is given, even when the buffer goes on', () => {
    const bytes = Uint8Array.from([0x05, 1, 2, 3, 4, 5]);
    assert.throws(() => new ProtoReader(bytes).lengthEnd(4), OtlpDecodeError);
    assert.equal(new ProtoReader(bytes).lengthEnd(6), 6);
    assert.throws(() => new ProtoReader(bytes).fixed64(6), OtlpDecodeError);
  });
});
