import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SIGNAL_HEADER, type BusRecord } from '../model/bus.js';
import { decodeLogs } from '../otlp/decode-logs.js';
import { decodeTraces } from '../otlp/decode-traces.js';
import { logsToProtobuf, makeLogs, makeSpans, spansToProtobuf } from '../otlp/otlp-fixtures.test-support.js';
import { encodeLogRows } from '../store/logs.js';
import { encodeSpanRows } from '../store/spans.js';
import { createPayloadEncoder } from './payload-encoder.js';

// The fixtures are stamped around 1_795_000_000 s; "now" a day later keeps them storable.
const NOW_MS = 1_795_086_400_000;
const TEN_DAYS_MS = 10 * 86_400_000;

function record(signal: 'traces' | 'logs', value: Uint8Array, offset: number): BusRecord {
  // A view into a larger buffer, as records read from the log are: only its own bytes may travel.
  const host = Buffer.alloc(value.length + 64, 0xff);
  host.set(value, 32);
  return {
    topic: 'svc.signals',
    partition: 0,
    offset: BigInt(offset),
    key: 'k',
    timestampMs: NOW_MS,
    value: host.subarray(32, 32 + value.length),
    headers: { [SIGNAL_HEADER]: signal },
  };
}

const spanBytes = spansToProtobuf(makeSpans());
const logBytes = logsToProtobuf(makeLogs());
const records = [record('traces', spanBytes, 0), record('logs', logBytes, 1), record('traces', spanBytes, 2)];
const spans = decodeTraces(spanBytes);
const logs = decodeLogs(logBytes);

for (const [threaded, format] of [
  [true, 'RowBinary'],
  [false, 'RowBinary'],
  [true, 'JSONCompactEachRow'],
] as const) {
  const where = `${threaded ? 'on the encoder thread' : 'inline'}, ${format}`;

  test(`records become the insert payloads of their rows, spans and logs apart (${where})`, async () => {
    const encoder = createPayloadEncoder({ threaded, format });
    try {
      const encoded = await encoder.encode(records, NOW_MS);
      assert.equal(encoded.spanRows, spans.length * 2);
      assert.equal(encoded.logRows, logs.length);
      assert.equal(Buffer.from(encoded.spans).toString('hex'), encodeSpanRows([...spans, ...spans], format).toString('hex'));
      assert.equal(Buffer.from(encoded.logs).toString('hex'), encodeLogRows(logs, format).toString('hex'));
      assert.equal(encoded.dropped.size, 0);
      assert.equal(encoded.badRecords, 0);
    } finally {
      await encoder.close();
    }
  });

  test(`items past the raw lifetime are counted, not encoded, and a bad record is skipped with its index (${where})`, async () => {
    const encoder = createPayloadEncoder({ threaded, format });
    try {
      const garbage = record('traces', Uint8Array.from([0x0a, 0xff, 0xff, 0xff, 0x0f]), 3);
      const encoded = await encoder.encode([records[0], garbage, records[1]], NOW_MS + TEN_DAYS_MS);
      assert.equal(encoded.spanRows, 0);
      assert.equal(encoded.logRows, 0);
      assert.deepEqual([...encoded.dropped], [['too_old', spans.length + logs.length]]);
      assert.equal(encoded.badRecords, 1);
      assert.equal(encoded.firstBad?.index, 1);
    } finally {
      await encoder.close();
    }
  });
}

test('many requests in flight on the encoder thread are answered, each with its own rows', async () => {
  const encoder = createPayloadEncoder({ threaded: true, format: 'RowBinary' });
  try {
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => encoder.encode(records.slice(0, 1 + (i % 3)), NOW_MS)));
    answers.forEach((encoded, i) => {
      const batch = records.slice(0, 1 + (i % 3));
      assert.equal(encoded.spanRows, spans.length * batch.filter((r) => r.headers?.[SIGNAL_HEADER] === 'traces').length);
      assert.equal(encoded.logRows, batch.length >= 2 ? logs.length : 0);
    });
  } finally {
    await encoder.close();
  }
});
