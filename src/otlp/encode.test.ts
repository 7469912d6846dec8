import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import refRoot from 'otlp-transformer-ref/build/src/generated/root.js';
import type { AttrPair, LogRow, SpanRow } from '../model/signals.js';
import { decodeLogs } from './decode-logs.js';
import { decodeTraces } from './decode-traces.js';
import { encodeLogsData } from './encode-logs.js';
import { encodeTracesData } from './encode-traces.js';
import { OtlpEncodeError } from './errors.js';
import { logIdOf } from './log-id.js';
import { logsToProtobuf, makeLogs, makeSpans, spansToProtobuf } from './otlp-fixtures.test-support.js';

/** The generated root's nested namespaces are not in its .d.ts, hence the structural cast. */
interface Decodable {
  decode(bytes: Uint8Array): unknown;
  toObject(message: unknown, options: object): unknown;
}
const v1 = (refRoot as unknown as { opentelemetry: { proto: { trace: { v1: { TracesData: Decodable } }; logs: { v1: { LogsData: Decodable } } } } })
  .opentelemetry.proto;

const RESOURCE: AttrPair[] = [
  ['service.name', 'api'],
  ['host.name', 'h1'],
];

function span(overrides: Partial<SpanRow> = {}): SpanRow {
  return {
    traceId: '0af7651916cd43dd8448eb211c80319c',
    spanId: 'b7ad6b7169203331',
    parentSpanId: '',
    serviceName: 'api',
    name: 'GET /',
    kind: 'server',
    startNs: 1_795_000_000_123_456_789n,
    endNs: 18_446_744_073_709_551_615n,
    status: 'unset',
    statusMessage: '',
    attrs: [],
    resource: RESOURCE,
    events: [],
    scopeName: '',
    scopeVersion: '',
    ...overrides,
  };
}

function log(overrides: Partial<LogRow> = {}): LogRow {
  const row: LogRow = {
    logId: '',
    tsNs: 1_795_000_000_000_000_001n,
    observedTsNs: 1_795_000_000_000_000_002n,
    traceId: '',
    spanId: '',
    serviceName: 'api',
    severityNumber: 9,
    severityText: 'INFO',
    body: 'hello',
    attrs: [],
    resource: RESOURCE,
    scopeName: 'logger',
    scopeVersion: '1',
    ...overrides,
  };
  row.logId = logIdOf(row);
  return row;
}

describe('encodeTracesData / encodeLogsData', () => {
  it('round-trips decoded SDK spans and logs exactly', () => {
    const spans = decodeTraces(spansToProtobuf(makeSpans()));
    assert.deepEqual(decodeTraces(encodeTracesData(spans)), spans);
    const logs = decodeLogs(logsToProtobuf(makeLogs()));
    assert.deepEqual(decodeLogs(encodeLogsData(logs)), logs);
  });

  it('round-trips every attribute value kind and edge value', () => {
    const attrs: AttrPair[] = [
      ['s', 'text'],
      ['empty', ''],
      ['unicode', 'żółć 🚀 日本'],
      ['t', true],
      ['f', false],
      ['zero', 0],
      // A double with no fraction decodes marked 'd' (signals.ts); the mark sends it back out as a double.
      ['negZero', -0, 'd'],
      ['neg', -1],
      ['minSafe', Number.MIN_SAFE_INTEGER],
      ['maxSafe', Number.MAX_SAFE_INTEGER],
      ['big', 2 ** 40],
      ['double', 0.1],
      ['huge', 1e300, 'd'],
      ['wholeDouble', 3, 'd'],
      ['bytes', 'AAEC+g==', 'b'],
      ['int64Min', '-9223372036854775808', 'i'],
      ['int64Max', '9223372036854775807', 'i'],
      ['markedList', ['AAE=', 2, '9007199254740993', 'plain', 4], ['b', 'd', 'i', null, null]],
      ['markedMap', { raw: 'AQ==', n: 1, s: 'text', inner: [5, 'x'] }, { raw: 'b', n: 'd', inner: ['d', null] }],
      ['nan', NaN],
      ['inf', -Infinity],
      ['int64Text', '-9223372036854775808'],
      ['null', null],
      ['arr', [1, 'a', null, [true], {}]],
      ['obj', { a: { b: [1.5] }, '': 'emptyKey' }],
      ['', 'empty key'],
      ['long', 'x'.repeat(70_000)],
    ];
    const rows = [
      span({
        attrs,
        parentSpanId: 'a1a2a3a4a5a6a7a8',
        status: 'error',
        statusMessage: 'boom',
        events: [
          { tsNs: 5n, name: 'e', attrs: [['k', 1]] },
          { tsNs: 0n, name: '', attrs: [] },
        ],
        scopeName: 'lib',
        scopeVersion: '',
      }),
    ];
    assert.deepEqual(decodeTraces(encodeTracesData(rows)), rows);
    const logs = [
      log({ attrs, body: '' }),
      log({ tsNs: 0n, observedTsNs: 0n, severityNumber: -2, traceId: '0af7651916cd43dd8448eb211c80319c', spanId: 'b7ad6b7169203331' }),
    ];
    assert.deepEqual(decodeLogs(encodeLogsData(logs)), logs);
  });

  it('round-trips every span kind and status', () => {
    const rows = (['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'] as const).flatMap((kind) =>
      (['unset', 'ok', 'error'] as const).map((status) => span({ kind, status })),
    );
    assert.deepEqual(decodeTraces(encodeTracesData(rows)), rows);
  });

  it('groups rows by resource content and scope, one ResourceSpans per resource', () => {
    const sameContent: AttrPair[] = [
      ['service.name', 'api'],
      ['host.name', 'h1'],
    ];
    const other: AttrPair[] = [['service.name', 'web']];
    const rows = [
      span({ name: 'a', scopeName: 's1' }),
      span({ name: 'b', resource: other, serviceName: 'web' }),
      span({ name: 'c', resource: sameContent, scopeName: 's2' }),
      span({ name: 'd', scopeName: 's1' }),
    ];
    const decoded = decodeTraces(encodeTracesData(rows));
    assert.deepEqual(
      decoded.map((row) => row.name),
      ['a', 'd', 'c', 'b'],
    );
    const message = v1.trace.v1.TracesData.toObject(v1.trace.v1.TracesData.decode(encodeTracesData(rows)), { defaults: false }) as {
      resourceSpans: { scopeSpans: unknown[] }[];
    };
    assert.equal(message.resourceSpans.length, 2);
    assert.equal(message.resourceSpans[0].scopeSpans.length, 2);
    assert.deepEqual(
      [...decoded].sort((x, y) => x.name.localeCompare(y.name)),
      [rows[0], rows[3], rows[2], rows[1]].sort((x, y) => x.name.localeCompare(y.name)),
    );
  });

  it('is readable by the reference protobufjs TracesData and LogsData decoders', () => {
    const rows = [
      span({
        attrs: [
          ['k', 'v'],
          ['n', -3],
        ],
        parentSpanId: 'a1a2a3a4a5a6a7a8',
        status: 'error',
        statusMessage: 'boom',
        scopeName: 'lib',
        scopeVersion: '2',
      }),
    ];
    const decoded = v1.trace.v1.TracesData.toObject(v1.trace.v1.TracesData.decode(encodeTracesData(rows)), { longs: String, bytes: String, defaults: false });
    const spanObject = (decoded as { resourceSpans: { resource: unknown; scopeSpans: { scope: unknown; spans: Record<string, unknown>[] }[] }[] })
      .resourceSpans[0].scopeSpans[0];
    assert.deepEqual(spanObject.scope, { name: 'lib', version: '2' });
    const only = spanObject.spans[0];
    assert.equal(Buffer.from(only.traceId as string, 'base64').toString('hex'), rows[0].traceId);
    assert.equal(Buffer.from(only.parentSpanId as string, 'base64').toString('hex'), 'a1a2a3a4a5a6a7a8');
    assert.equal(only.kind, 2);
    assert.equal(only.startTimeUnixNano, '1795000000123456789');
    assert.equal(only.endTimeUnixNano, '18446744073709551615');
    assert.deepEqual(only.attributes, [
      { key: 'k', value: { stringValue: 'v' } },
      { key: 'n', value: { intValue: '-3' } },
    ]);
    assert.deepEqual(only.status, { message: 'boom', code: 2 });
    const logsObject = v1.logs.v1.LogsData.toObject(v1.logs.v1.LogsData.decode(encodeLogsData([log({ spanId: 'b7ad6b7169203331' })])), {
      longs: String,
      bytes: String,
      defaults: false,
    }) as {
      resourceLogs: { scopeLogs: { logRecords: Record<string, unknown>[] }[] }[];
    };
    const record = logsObject.resourceLogs[0].scopeLogs[0].logRecords[0];
    assert.deepEqual(record.body, { stringValue: 'hello' });
    assert.equal(record.severityNumber, 9);
    assert.equal(record.observedTimeUnixNano, '1795000000000000002');
  });

  it('makes the encoded resource yield the row service name when a hand-built row disagrees', () => {
    const [row] = decodeTraces(
      encodeTracesData([
        span({
          serviceName: 'billing',
          resource: [
            ['service.name', 'api'],
            ['x', 1],
          ],
        }),
      ]),
    );
    assert.equal(row.serviceName, 'billing');
    assert.deepEqual(row.resource, [
      ['x', 1],
      ['service.name', 'billing'],
    ]);
    const [unknown] = decodeTraces(encodeTracesData([span({ serviceName: 'unknown_service', resource: [['service.name', 'api']] })]));
    assert.equal(unknown.serviceName, 'unknown_service');
    assert.deepEqual(unknown.resource, []);
  });

  it('encodes a lone surrogate as U+FFFD, with sizes that still agree', () => {
    const [row] = decodeTraces(encodeTracesData([span({ name: 'a\ud800b', attrs: [['k', '\udc00'.repeat(60)]] })]));
    assert.equal(row.name, 'a\ufffdb');
    assert.equal(row.attrs[0][1], '\ufffd'.repeat(60));
  });

  it('encodes empty input as an empty message', () => {
    assert.equal(encodeTracesData([]).length, 0);
    assert.equal(encodeLogsData([]).length, 0);
  });

  it('throws OtlpEncodeError on ids that are not hex or have the wrong length', () => {
    assert.throws(() => encodeTracesData([span({ traceId: 'abc' })]), OtlpEncodeError);
    assert.throws(() => encodeTracesData([span({ spanId: 'zzzzzzzzzzzzzzzz' })]), OtlpEncodeError);
    assert.throws(() => encodeTracesData([span({ parentSpanId: '00' })]), OtlpEncodeError);
    assert.throws(() => encodeLogsData([log({ traceId: 'b7ad6b7169203331' })]), OtlpEncodeError);
    // The writer is reused: a failed call must not poison the next one.
    assert.deepEqual(decodeTraces(encodeTracesData([span()])), [span()]);
  });
});
