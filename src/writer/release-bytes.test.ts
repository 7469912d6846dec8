import { test } from 'node:test';
import assert from 'node:assert/strict';
import { releaseBytes } from './release-bytes.js';

test('a view covering its whole buffer is released: it reads as empty afterwards', () => {
  const payload = Buffer.allocUnsafeSlow(64 * 1024).fill(7);
  releaseBytes(payload);
  assert.equal(payload.byteLength, 0);
  assert.equal(payload.buffer.byteLength, 0);
});

test("a view sharing its buffer (Buffer's pool, a slice) is left as it is, and so is its neighbours' data", () => {
  const pooled = Buffer.from('small payload');
  assert.ok(pooled.byteLength < pooled.buffer.byteLength, "the test needs a view of Buffer's pool");
  releaseBytes(pooled);
  assert.equal(pooled.toString(), 'small payload');

  const whole = Buffer.allocUnsafeSlow(1024).fill(1);
  const slice = whole.subarray(0, 512);
  releaseBytes(slice);
  assert.equal(slice.byteLength, 512);
  assert.equal(whole.readUInt8(1023), 1);
});

test('an empty view is left alone', () => {
  const empty = new Uint8Array(0);
  releaseBytes(empty);
  assert.equal(empty.byteLength, 0);
});
