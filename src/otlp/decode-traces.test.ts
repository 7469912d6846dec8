import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeTraces } from './decode-traces.js';
import { expectedSpanRows, makeSpans, spansToProtobuf } from './otlp-fixtures.test-support.js';
import {
  doubleField,
  fixed32Field,
  fixed64Field,
  lenField,
  message,
  spanMessage,
  stringAttr,
  tag,
  tracesData,
  varint,
  varintField,
} from './proto-build.test-support.js';

describe('decodeTraces', () => {
  it('decodes the reference serializer output of real SDK spans to the expected rows', () => {
    const spans = makeSpans();
    const rows = decodeTraces(spansToProtobuf(spans));
    assert.equal(rows.length, 10);
    assert.deepEqual(rows, expectedSpanRows(spans));
  });

  it('maps kinds, statuses, service name and scope', () => {
    const rows = decodeTraces(spansToProtobuf(makeSpans()));
    assert.deepEqual(rows.map((row) => row.kind).sort(), [
      'client',
      'client',
      'consumer',
      'consumer',
      'internal',
      'internal',
      'producer',
      'producer',
      'server',
      'server',
    ]);
    const root = rows.find((row) => row.kind === 'server' && row.serviceName === 'checkout');
    assert.ok(root);
    assert.equal(root.status, 'error');
    assert.equal(root.statusMessage, 'upstream failed');
    assert.equal(root.scopeName, '@opentelemetry/instrumentation-http');
    assert.equal(root.scopeVersion, '0.214.0');
    assert.equal(rows.filter((row) => row.serviceName === 'unknown_service').length, 5);
    assert.ok(rows.some((row) => row.status === 'ok'));
  });

  it('keeps 64-bit timestamps above 2^53 exact, up to 2^64 - 1', () => {
    const start = 1_795_000_000_123_456_789n;
    const max = (1n << 64n) - 1n;
    const [row] = decodeTraces(tracesData([spanMessage([fixed64Field(7, start), fixed64Field(8, max)])]));
    assert.equal(row.startNs, start);
    assert.equal(row.endNs, max);
    assert.ok(row.startNs > BigInt(Number.MAX_SAFE_INTEGER));
  });

  it('decodes every AnyValue kind, int64 as number when safe and as exact text when not', () => {
    const attr = (key: string, value: Uint8Array): number[] => lenField(9, message(lenField(1, key), lenField(2, value)));
    const kv = (key: string, value: Uint8Array): number[] => lenField(1, message(lenField(1, key), lenField(2, value)));
    const bytes = decodeTraces(
      tracesData([
        spanMessage([
          attr('s', message(lenField(1, 'text'))),
          attr('b', message(varintField(2, 1))),
          attr('bHigh', message(varintField(2, 1n << 32n))),
          attr('bFalse', message(varintField(2, 0))),
          attr('i', message(varintField(3, 42))),
          attr('neg', message(varintField(3, -7n))),
          attr('maxSafe', message(varintField(3, 2n ** 53n - 1n))),
          attr('unsafe', message(varintField(3, 2n ** 53n))),
          attr('min', message(varintField(3, -(2n ** 63n)))),
          attr('d', message(doubleField(4, 1.5))),
          attr('arr', message(lenField(5, message(lenField(1, message(lenField(1, 'x'))), lenField(1, message(varintField(3, 1))), lenField(1, message()))))),
          attr('kv', message(lenField(6, message(kv('k', message(lenField(1, 'v'))), kv('__proto__', message(varintField(3, 5))))))),
          attr('bytes', message(lenField(7, [0, 1, 2, 250]))),
          attr('empty', message()),
          lenField(9, message(lenField(1, 'novalue'))),
        ]),
      ]),
    );
    const attrs = Object.fromEntries(bytes[0].attrs);
    assert.equal(attrs.s, 'text');
    assert.equal(attrs.b, true);
    assert.equal(attrs.bHigh, true);
    assert.equal(attrs.bFalse, false);
    assert.equal(attrs.i, 42);
    assert.equal(attrs.neg, -7);
    assert.equal(attrs.maxSafe, Number.MAX_SAFE_INTEGER);
    assert.equal(attrs.unsafe, '9007199254740992');
    assert.equal(attrs.min, '-9223372036854775808');
    assert.equal(attrs.d, 1.5);
    assert.deepEqual(attrs.arr, ['x', 1, null]);
    const kvlist = attrs.kv as { [key: string]: unknown };
    assert.equal(kvlist.k, 'v');
    assert.equal(Object.getPrototypeOf(kvlist), Object.prototype, 'a __proto__ key must not replace the prototype');
    assert.deepEqual(Object.keys(kvlist), ['k', '__proto__']);
    assert.equal(attrs.bytes, Buffer.from([0, 1, 2, 250]).toString('base64'));
    assert.equal(attrs.empty, null);
    assert.equal(attrs.novalue, null);
  });

  it('marks the values whose JSON hides their type: bytes, int64 past 2^53, integral doubles, inside lists and maps too', () => {
    const attr = (key: string, value: Uint8Array): number[] => lenField(9, message(lenField(1, key), lenField(2, value)));
    const kv = (key: string, value: Uint8Array): number[] => lenField(1, message(lenField(1, key), lenField(2, value)));
    const item = (value: Uint8Array): number[] => lenField(1, value);
    const [row] = decodeTraces(
      tracesData([
        spanMessage([
          attr('text', message(lenField(1, 'AQ=='))),
          attr('safe', message(varintField(3, 2n ** 53n - 1n))),
          attr('unsafe', message(varintField(3, 2n ** 53n))),
          attr('whole', message(doubleField(4, 2))),
          attr('fraction', message(doubleField(4, 2.5))),
          attr('raw', message(lenField(7, [255]))),
          attr('list', message(lenField(5, message(item(message(lenField(1, 'x'))), item(message(doubleField(4, 7))), item(message(varintField(3, 1))))))),
          attr('plainList', message(lenField(5, message(item(message(varintField(3, 1))))))),
          attr(
            'map',
            message(
              lenField(
                6,
                message(
                  kv('n', message(varintField(3, 1))),
                  kv('__proto__', message(lenField(7, [1]))),
                  kv('deep', message(lenField(5, message(item(message(varintField(3, -(2n ** 63n)))))))),
                ),
              ),
            ),
          ),
        ]),
      ]),
    );
    assert.deepEqual(row!.attrs, [
      ['text', 'AQ=='],
      ['safe', Number.MAX_SAFE_INTEGER],
      ['unsafe', '9007199254740992', 'i'],
      ['whole', 2, 'd'],
      ['fraction', 2.5],
      ['raw', '/w==', 'b'],
      ['list', ['x', 7, 1], [null, 'd', null]],
      ['plainList', [1]],
      ['map', JSON.parse('{"n":1,"__proto__":"AQ==","deep":["-9223372036854775808"]}'), JSON.parse('{"__proto__":"b","deep":["i"]}')],
    ]);
  });

  it('skips unknown fields of every wire type at every level', () => {
    const unknown = [
      varintField(99, 300),
      fixed64Field(98, 1n),
      fixed32Field(97, 7),
      lenField(96, 'future'),
      [...tag(95, 3), ...varintField(1, 1), ...tag(95, 4)],
    ];
    const plainSpan = spanMessage([lenField(5, 'op'), stringAttr(9, 'k', 'v'), lenField(15, message(varintField(3, 2)))]);
    const plain = decodeTraces(tracesData([plainSpan], [stringAttr(1, 'service.name', 'svc-a')], [lenField(1, 'scope')]));
    const anyValueWithUnknown = message(...unknown, lenField(1, 'v'));
    const noisySpan = spanMessage([
      ...unknown,
      lenField(5, 'op'),
      lenField(9, message(lenField(1, 'k'), ...unknown, lenField(2, anyValueWithUnknown))),
      lenField(15, message(...unknown, varintField(3, 2))),
      lenField(3, 'tracestate=1'),
      fixed32Field(16, 257),
    ]);
    const scopeSpans = message(...unknown, lenField(1, message(lenField(1, 'scope'), ...unknown)), lenField(2, noisySpan));
    const resource = message(...unknown, stringAttr(1, 'service.name', 'svc-a'), varintField(2, 0));
    const resourceSpans = message(...unknown, lenField(1, resource), lenField(2, scopeSpans), lenField(3, 'https://schema'));
    const noisy = decodeTraces(message(...unknown, lenField(1, resourceSpans)));
    assert.deepEqual(noisy, plain);
    assert.equal(plain[0].serviceName, 'svc-a');
  });

  it('accepts fields in any order: resource and scope after the spans', () => {
    const span = spanMessage([lenField(5, 'late')]);
    const scopeSpans = message(lenField(2, span), lenField(1, message(lenField(1, 'lib'), lenField(2, '9'))));
    const resourceSpans = message(lenField(2, scopeSpans), lenField(1, message(stringAttr(1, 'service.name', 'late-svc'))));
    const [row] = decodeTraces(message(lenField(1, resourceSpans)));
    assert.equal(row.serviceName, 'late-svc');
    assert.deepEqual(row.resource, [['service.name', 'late-svc']]);
    assert.equal(row.scopeName, 'lib');
    assert.equal(row.scopeVersion, '9');
  });

  it('reads an empty payload as no spans and a Uint8Array that is not a Buffer', () => {
    assert.deepEqual(decodeTraces(new Uint8Array(0)), []);
    const bytes = spansToProtobuf(makeSpans());
    const copy = new Uint8Array(bytes.length + 3).subarray(3);
    copy.set(bytes);
    assert.deepEqual(decodeTraces(copy), decodeTraces(Buffer.from(bytes)));
  });

  it('gives distinct strings for many similar short values (intern cache never confuses them)', () => {
    const spans: Uint8Array[] = [];
    for (let i = 0; i < 3000; i++) spans.push(spanMessage([lenField(5, `op-${i}`), stringAttr(9, `k${i % 7}`, `v-${i}-${'é'.repeat(i % 5)}`)]));
    const rows = decodeTraces(tracesData(spans));
    rows.forEach((row, i) => {
      assert.equal(row.name, `op-${i}`);
      assert.deepEqual(row.attrs, [[`k${i % 7}`, `v-${i}-${'é'.repeat(i % 5)}`]]);
    });
  });

  it('reads an all-zero parent span id as a root span', () => {
    const [row] = decodeTraces(tracesData([spanMessage([lenField(4, new Uint8Array(8))])]));
    assert.equal(row.parentSpanId, '');
    const [child] = decodeTraces(tracesData([spanMessage([lenField(4, Uint8Array.from([0, 0, 0, 0, 0, 0, 0, 1]))])]));
    assert.equal(child.parentSpanId, '0000000000000001');
  });

  it('decodes a negative enum (sign-extended to 10 bytes) as unspecified kind', () => {
    const [row] = decodeTraces(tracesData([spanMessage([[...tag(6, 0), ...varint(-1n)]])]));
    assert.equal(row.kind, 'unspecified');
  });
});
