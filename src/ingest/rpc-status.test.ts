import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodeRpcStatus } from '../testing/rpc-status.js';
import { encodeRpcStatus, GRPC_CODE, RETRY_INFO_TYPE_URL } from './rpc-status.js';

test('a status without retry info is code and message only', () => {
  assert.deepEqual(encodeRpcStatus(GRPC_CODE.INVALID_ARGUMENT, 'bad'), Buffer.from([0x08, 0x03, 0x12, 0x03, 0x62, 0x61, 0x64]));
  assert.deepEqual(decodeRpcStatus(encodeRpcStatus(GRPC_CODE.INVALID_ARGUMENT, 'bad')), { code: 3, message: 'bad', retryDelaysSecs: [], detailTypes: [] });
});

test('a throttling status carries one google.rpc.RetryInfo detail with the delay, byte for byte', () => {
  const typeUrl = Buffer.from(RETRY_INFO_TYPE_URL);
  assert.equal(typeUrl.length, 40);
  const expected = Buffer.concat([
    Buffer.from([0x08, 14, 0x12, 0x01, 0x78]), // code 14, message "x"
    Buffer.from([0x1a, 48, 0x0a, 40]), // details[0]: Any, its type_url
    typeUrl,
    Buffer.from([0x12, 0x04, 0x0a, 0x02, 0x08, 0x01]), // Any.value = RetryInfo{retry_delay: Duration{seconds: 1}}
  ]);
  assert.deepEqual(encodeRpcStatus(GRPC_CODE.UNAVAILABLE, 'x', 1), expected);
  assert.deepEqual(decodeRpcStatus(encodeRpcStatus(GRPC_CODE.UNAVAILABLE, 'retry later', 300)), {
    code: 14,
    message: 'retry later',
    retryDelaysSecs: [300],
    detailTypes: [RETRY_INFO_TYPE_URL],
  });
});
