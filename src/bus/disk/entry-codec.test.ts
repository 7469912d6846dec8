import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { BusRecord } from '../../model/bus.js';
import { encodeRecordFrame, readFrame, recordFrameBytes, writeRecordFrame } from './entry-codec.js';
import { sealFrames } from './frame-seal.js';

/**
 * The log's record frames keep their on-disk form byte for byte: segments written by earlier
 * builds (which framed each record on the main thread) recover, and these read back there.
 * The expected bytes were written by the build before framing moved to the group's buffer.
 */

const EARLIER_FRAMES: { record: BusRecord; hex: string }[] = [
  {
    record: {
      topic: 'svc-signals',
      partition: 3,
      offset: 1234567890123n,
      timestampMs: 1765130000123.5,
      key: 'trace-é1',
      value: Buffer.from('value bytes'),
      headers: { 'svc-signal': 'traces', x: 'ÿ' },
    },
    hex:
      '5f0000007175f05d010b007376632d7369676e616c7303000000cb04fb711f01000000b86f259faf79420900000074726163652dc3a93102000a00' +
      '7376632d7369676e616c0600000074726163657301007802000000c3bf0b00000076616c7565206279746573',
  },
  {
    record: { topic: 't', partition: 0, offset: 0n, timestampMs: 0, key: '', value: Buffer.alloc(0), headers: undefined },
    hex: '2200000018a7748e01010074000000000000000000000000000000000000000000000000000000000000',
  },
];

test('a record frame is byte for byte the one earlier builds wrote, and reads back', () => {
  for (const { record, hex } of EARLIER_FRAMES) {
    const frame = encodeRecordFrame(record);
    assert.equal(frame.toString('hex'), hex);
    assert.equal(recordFrameBytes(record.topic, record), frame.length);
    const read = readFrame(frame, 0);
    assert.equal(read.kind, 'entry');
    if (read.kind === 'entry') assert.deepEqual(read.entry, { kind: 'record', ...record });
  }
});

test('frames written back to back into one buffer are sealed together, each with its own checksum', () => {
  const records = EARLIER_FRAMES.map((entry) => entry.record);
  const group = Buffer.alloc(records.reduce((sum, record) => sum + recordFrameBytes(record.topic, record), 0));
  let at = 0;
  for (const record of records) at = writeRecordFrame(group, at, record);
  assert.equal(at, group.length);
  assert.equal(readFrame(group, 0).kind, 'corrupt', 'unsealed: checksum zero');
  sealFrames(group);
  assert.equal(group.toString('hex'), EARLIER_FRAMES.map((entry) => entry.hex).join(''));
});

test('sealing refuses bytes that are not whole frames, sealing none past the first bad one', () => {
  const [, empty] = EARLIER_FRAMES;
  assert.ok(empty !== undefined);
  const whole = encodeRecordFrame(empty.record);
  whole.writeUInt32LE(0, 4);
  for (const tail of [Buffer.from([1, 2, 3]), Buffer.from([200, 0, 0, 0, 0, 0, 0, 0, 1]), Buffer.alloc(8)]) {
    const bytes = Buffer.concat([whole, tail]);
    assert.throws(() => sealFrames(bytes), /no whole frame at byte 42/);
    assert.equal(bytes.subarray(0, whole.length).toString('hex'), empty.hex, 'the whole frame before it was sealed');
  }
});

test("a frozen headers object's bytes are reused, an unfrozen one's are encoded as it is at each frame", () => {
  const [golden] = EARLIER_FRAMES;
  assert.ok(golden !== undefined);
  const frozen = Object.freeze({ ...golden.record.headers });
  for (let round = 0; round < 2; round++) assert.equal(encodeRecordFrame({ ...golden.record, headers: frozen }).toString('hex'), golden.hex);
  const changing: Record<string, string> = { ...golden.record.headers };
  assert.equal(encodeRecordFrame({ ...golden.record, headers: changing }).toString('hex'), golden.hex);
  changing.x = 'changed';
  const changed = readFrame(encodeRecordFrame({ ...golden.record, headers: changing }), 0);
  assert.ok(changed.kind === 'entry' && changed.entry.kind === 'record');
  assert.deepEqual(changed.entry.headers, { 'svc-signal': 'traces', x: 'changed' });
  assert.equal(recordFrameBytes(golden.record.topic, { ...golden.record, headers: changing }), golden.hex.length / 2 + 'changed'.length - 'ÿ'.length * 2);
});
