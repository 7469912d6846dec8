import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeLogsJson } from './decode-json-logs.js';
import { decodeTracesJson } from './decode-json-traces.js';
import { decodeLogs } from './decode-logs.js';
import { decodeTraces } from './decode-traces.js';
import { OtlpDecodeError } from './errors.js';
import { logsToJson, logsToProtobuf, makeLogs, makeSpans, spansToJson, spansToProtobuf } from './otlp-fixtures.test-support.js';

const TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const SPAN_ID = 'b7ad6b7169203331';

function tracesWith(span: object, extra: object = {}): unknown {
  return {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: 'api' } }] },
        scopeSpans: [{ scope: { name: 's' }, spans: [{ traceId: TRACE_ID, spanId: SPAN_ID, ...span }] }],
        ...extra,
      },
    ],
  };
}

function logsWith(record: object): unknown {
  return { resourceLogs: [{ scopeLogs: [{ logRecords: [record] }] }] };
}

describe('decodeTracesJson / decodeLogsJson', () => {
  it('gives the same span rows as the protobuf path for the same SDK spans', () => {
    const spans = makeSpans();
    const fromJson = decodeTracesJson(spansToJson(spans));
    assert.equal(fromJson.length, 10);
    assert.deepEqual(fromJson, decodeTraces(spansToProtobuf(spans)));
  });

  it('gives the same log rows (and log ids) as the protobuf path for the same SDK logs', () => {
    const logs = makeLogs();
    const fromJson = decodeLogsJson(logsToJson(logs));
    assert.equal(fromJson.length, 10);
    assert.deepEqual(fromJson, decodeLogs(logsToProtobuf(logs)));
  });

  it('accepts int64/fixed64 as strings or numbers, enum names, upper-case hex ids and nulls', () => {
    const [row] = decodeTracesJson(
      tracesWith({
        traceId: TRACE_ID.toUpperCase(),
        parentSpanId: null,
        kind: 'SPAN_KIND_CLIENT',
        startTimeUnixNano: '18446744073709551615',
        endTimeUnixNano: 1795000000000000000,
        status: { code: 'STATUS_CODE_ERROR', message: null },
        attributes: [
          { key: 'a', value: { intValue: '9007199254740993' } },
          { key: 'b', value: { intValue: -5 } },
          { key: 'c', value: { doubleValue: 'NaN' } },
          { key: 'c2', value: { doubleValue: '-2.5e3' } },
          { key: 'd', value: { bytesValue: 'AAEC-g' } },
          { key: 'e', value: {} },
          { key: 'f' },
          { key: 'g', value: { kvlistValue: { values: [{ key: 'x', value: { arrayValue: { values: [{ boolValue: true }] } } }] } } },
        ],
      }),
    );
    assert.equal(row.traceId, TRACE_ID);
    assert.equal(row.parentSpanId, '');
    assert.equal(row.kind, 'client');
    assert.equal(row.startNs, (1n << 64n) - 1n);
    assert.equal(row.endNs, 1795000000000000000n);
    assert.equal(row.status, 'error');
    assert.equal(row.statusMessage, '');
    assert.deepEqual(row.attrs, [
      ['a', '9007199254740993', 'i'],
      ['b', -5],
      ['c', NaN],
      ['c2', -2500, 'd'],
      ['d', Buffer.from([0, 1, 2, 250]).toString('base64'), 'b'],
      ['e', null],
      ['f', null],
      ['g', { x: [true] }],
    ]);
  });

  it('reads all-zero optional ids as empty, like the protobuf path', () => {
    const [span] = decodeTracesJson(tracesWith({ parentSpanId: '0'.repeat(16) }));
    assert.equal(span.parentSpanId, '');
    const [row] = decodeLogsJson(logsWith({ traceId: '0'.repeat(32), spanId: '0'.repeat(16) }));
    assert.equal(row.traceId, '');
    assert.equal(row.spanId, '');
  });

  it('reads log bodies and ids like the protobuf path', () => {
    const [row] = decodeLogsJson(
      logsWith({ observedTimeUnixNano: '77', body: { kvlistValue: { values: [{ key: 'k', value: { intValue: '1' } }] } }, traceId: '', spanId: '' }),
    );
    assert.equal(row.tsNs, 77n);
    assert.equal(row.body, '{"k":1}');
    assert.equal(row.traceId, '');
    assert.equal(row.serviceName, 'unknown_service');
  });

  const badTraces: [string, unknown][] = [
    ['request not an object', []],
    ['request null', null],
    ['resourceSpans not an array', { resourceSpans: {} }],
    ['spans not an array', { resourceSpans: [{ scopeSpans: [{ spans: 'x' }] }] }],
    ['span not an object', { resourceSpans: [{ scopeSpans: [{ spans: [3] }] }] }],
    ['number trace id', tracesWith({ traceId: 12 })],
    ['short trace id', tracesWith({ traceId: 'abcd' })],
    ['non-hex span id', tracesWith({ spanId: 'zzzzzzzzzzzzzzzz' })],
    ['missing span id', tracesWith({ spanId: undefined })],
    ['bad parent id', tracesWith({ parentSpanId: '00' })],
    ['name not a string', tracesWith({ name: 5 })],
    ['kind a float', tracesWith({ kind: 1.5 })],
    ['kind unknown name', tracesWith({ kind: 'SPAN_KIND_WEIRD' })],
    ['negative time', tracesWith({ startTimeUnixNano: -1 })],
    ['time text', tracesWith({ startTimeUnixNano: '12ab' })],
    ['time past 2^64', tracesWith({ startTimeUnixNano: '18446744073709551616' })],
    ['attributes not an array', tracesWith({ attributes: {} })],
    ['attribute key a number', tracesWith({ attributes: [{ key: 1, value: { stringValue: 'x' } }] })],
    ['stringValue a number', tracesWith({ attributes: [{ key: 'k', value: { stringValue: 1 } }] })],
    ['boolValue a string', tracesWith({ attributes: [{ key: 'k', value: { boolValue: 'true' } }] })],
    ['intValue a float', tracesWith({ attributes: [{ key: 'k', value: { intValue: 1.5 } }] })],
    ['intValue past int64', tracesWith({ attributes: [{ key: 'k', value: { intValue: '9223372036854775808' } }] })],
    ['doubleValue an object', tracesWith({ attributes: [{ key: 'k', value: { doubleValue: {} } }] })],
    ['doubleValue a hex string', tracesWith({ attributes: [{ key: 'k', value: { doubleValue: '0x10' } }] })],
    ['bytesValue not base64', tracesWith({ attributes: [{ key: 'k', value: { bytesValue: '***' } }] })],
    ['arrayValue.values not an array', tracesWith({ attributes: [{ key: 'k', value: { arrayValue: { values: 1 } } }] })],
    ['events not an array', tracesWith({ events: 'x' })],
    ['links not an array', tracesWith({ links: {} })],
    ['link without a trace id', tracesWith({ links: [{ spanId: SPAN_ID }] })],
    ['link span id of 16 bytes', tracesWith({ links: [{ traceId: TRACE_ID, spanId: TRACE_ID }] })],
    ['link dropped count negative', tracesWith({ links: [{ traceId: TRACE_ID, spanId: SPAN_ID, droppedAttributesCount: -1 }] })],
    ['status not an object', tracesWith({ status: 2 })],
    ['resource not an object', tracesWith({}, { resource: 'r' })],
  ];
  for (const [name, input] of badTraces) {
    it(`throws OtlpDecodeError for traces: ${name}`, () => {
      assert.throws(() => decodeTracesJson(input), OtlpDecodeError);
    });
  }

  const badLogs: [string, unknown][] = [
    ['logRecords not an array', { resourceLogs: [{ scopeLogs: [{ logRecords: {} }] }] }],
    ['trace id of 8 bytes', logsWith({ traceId: SPAN_ID })],
    ['span id a number', logsWith({ spanId: 5 })],
    ['severityNumber a string number', logsWith({ severityNumber: '9' })],
    ['severityText a number', logsWith({ severityText: 9 })],
    ['body not an object', logsWith({ body: 'text' })],
    ['time a boolean', logsWith({ timeUnixNano: true })],
  ];
  for (const [name, input] of badLogs) {
    it(`throws OtlpDecodeError for logs: ${name}`, () => {
      assert.throws(() => decodeLogsJson(input), OtlpDecodeError);
    });
  }

  it('names the envelope field at fault, for each signal', () => {
    const cases: [() => unknown, string][] = [
      [() => decodeTracesJson({ resourceSpans: {} }), 'resourceSpans must be an array'],
      [() => decodeTracesJson({ resourceSpans: [null] }), 'resourceSpans item must be an object'],
      [() => decodeTracesJson({ resourceSpans: [{ scopeSpans: [7] }] }), 'scopeSpans item must be an object'],
      [() => decodeTracesJson({ resourceSpans: [{ scopeSpans: [{ spans: 'x' }] }] }), 'spans must be an array'],
      [() => decodeLogsJson({ resourceLogs: [[]] }), 'resourceLogs item must be an object'],
      [() => decodeLogsJson({ resourceLogs: [{ scopeLogs: 'x' }] }), 'scopeLogs must be an array'],
      [() => decodeLogsJson({ resourceLogs: [{ scopeLogs: [null] }] }), 'scopeLogs item must be an object'],
      [() => decodeLogsJson({ resourceLogs: [{ scopeLogs: [{ scope: 1 }] }] }), 'scope must be an object'],
    ];
    for (const [decode, message] of cases) assert.throws(decode, (error: unknown) => error instanceof OtlpDecodeError && error.message === message, message);
  });

  it('rejects AnyValue nesting past the depth limit instead of overflowing the stack', () => {
    let value: object = { stringValue: 'leaf' };
    for (let i = 0; i < 5000; i++) value = { arrayValue: { values: [value] } };
    assert.throws(() => decodeTracesJson(tracesWith({ attributes: [{ key: 'deep', value }] })), OtlpDecodeError);
  });
});
