import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeLogs } from './decode-logs.js';
import { decodeTraces } from './decode-traces.js';
import { OtlpDecodeError } from './errors.js';
import { WireSlices } from './wire-slices.js';
import { logsToProtobuf, makeLogs, makeSpans, spansToProtobuf } from './otlp-fixtures.test-support.js';
import { fixed64Field, hexBytes, lenField, logsData, message, spanMessage, tag, tracesData, varint, varintField } from './proto-build.test-support.js';

/** Deterministic pseudo-random numbers (mulberry32). */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Ingest's decodes: skimmed rows over wire slices (decodeTraces says what a skim leaves out). */
const skimTraces = (bytes: Uint8Array) => decodeTraces(bytes, new WireSlices(bytes));
const skimLogs = (bytes: Uint8Array) => decodeLogs(bytes, { logIds: false }, new WireSlices(bytes));

/** The skim accepts exactly what the full decode accepts, and rejects with the same message. */
function assertSkimAgrees(decode: (bytes: Uint8Array) => unknown[], skim: (bytes: Uint8Array) => unknown[], bytes: Uint8Array): void {
  const outcome = (run: (bytes: Uint8Array) => unknown[]) => {
    try {
      run(bytes);
      return 'ok';
    } catch (error) {
      return error instanceof OtlpDecodeError ? `rejected: ${error.message}` : `threw ${String(error)}`;
    }
  };
  assert.equal(outcome(skim), outcome(decode));
}

/** Decoding must either succeed or throw OtlpDecodeError, never another error. */
function decodesOrRejects(decode: (bytes: Uint8Array) => unknown[], bytes: Uint8Array): 'ok' | 'rejected' {
  try {
    assert.ok(Array.isArray(decode(bytes)));
    return 'ok';
  } catch (error) {
    if (error instanceof OtlpDecodeError) return 'rejected';
    throw error;
  }
}

const TRACE_ID = '0102030405060708090a0b0c0d0e0f10';

describe('malformed OTLP protobuf', () => {
  const cases: [string, Uint8Array][] = [
    ['truncated varint tag', Uint8Array.from([0x80])],
    ['truncated length', Uint8Array.from([0x0a, 0x80])],
    ['length past end', Uint8Array.from([0x0a, 0x05, 0x00])],
    ['huge length', Uint8Array.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f])],
    ['varint longer than 10 bytes', Uint8Array.from([0x08, ...new Array(11).fill(0xff), 0x01])],
    ['wire type 6', Uint8Array.from([0x0e])],
    ['wire type 7', Uint8Array.from([0x0f])],
    ['field number 0', Uint8Array.from([0x02, 0x00])],
    ['end group without start', Uint8Array.from([...tag(5, 4)])],
    ['unterminated group', message(tag(5, 3), varintField(1, 1))],
    ['mismatched end group', message(tag(5, 3), tag(6, 4))],
    ['resource_spans as varint (wrong wire type)', message(varintField(1, 1))],
    ['span name as varint (wrong wire type)', tracesData([spanMessage([varintField(5, 1)])])],
    ['start time as varint (wrong wire type)', tracesData([spanMessage([varintField(7, 1)])])],
    ['truncated fixed64', tracesData([spanMessage([[...tag(7, 1), 1, 2, 3]])])],
    ['child length past parent end', message(lenField(1, message(tag(2, 2), varint(3))), [0, 0, 0])],
    ['trace id of 15 bytes', tracesData([spanMessage([], '0102030405060708090a0b0c0d0e0f')])],
    ['trace id of 17 bytes', tracesData([spanMessage([], '0102030405060708090a0b0c0d0e0f1011')])],
    ['span id of 7 bytes', tracesData([spanMessage([], TRACE_ID, 'a1a2a3a4a5a6a7')])],
    ['missing trace id', tracesData([message(lenField(2, hexBytes('a1a2a3a4a5a6a7a8')))])],
    ['missing span id', tracesData([message(lenField(1, hexBytes(TRACE_ID)))])],
    ['parent span id of 4 bytes', tracesData([spanMessage([lenField(4, hexBytes('01020304'))])])],
    [
      'link trace id of 8 bytes',
      tracesData([spanMessage([lenField(13, message(lenField(1, hexBytes('0102030405060708')), lenField(2, hexBytes('a1a2a3a4a5a6a7a8'))))])]),
    ],
    ['link without a span id', tracesData([spanMessage([lenField(13, message(lenField(1, hexBytes(TRACE_ID))))])])],
    ['link dropped count as length-delimited', tracesData([spanMessage([lenField(13, message(lenField(5, 'x')))])])],
    ['links as varint (wrong wire type)', tracesData([spanMessage([varintField(13, 1)])])],
  ];
  for (const [name, bytes] of cases) {
    it(`rejects ${name}`, () => {
      assert.throws(() => decodeTraces(bytes), OtlpDecodeError);
      assert.throws(() => skimTraces(bytes), OtlpDecodeError);
    });
  }

  const logCases: [string, Uint8Array][] = [
    ['log trace id of 8 bytes', logsData([message(lenField(9, hexBytes('0102030405060708')))])],
    ['log span id of 16 bytes', logsData([message(lenField(10, hexBytes(TRACE_ID)))])],
    ['body as string field (wrong wire type)', logsData([message(varintField(5, 1))])],
    ['observed time as length-delimited', logsData([message(lenField(11, 'x'))])],
  ];
  for (const [name, bytes] of logCases) {
    it(`rejects ${name}`, () => {
      assert.throws(() => decodeLogs(bytes), OtlpDecodeError);
      assert.throws(() => skimLogs(bytes), OtlpDecodeError);
    });
  }

  it('accepts empty trace and span ids on logs', () => {
    const [row] = decodeLogs(logsData([message(lenField(9, []), lenField(10, []), fixed64Field(1, 1n))]));
    assert.equal(row.traceId, '');
    assert.equal(row.spanId, '');
  });

  it('rejects AnyValue nesting past the depth limit instead of overflowing the stack', () => {
    const nested = (levels: number): Uint8Array => {
      let value = message(lenField(1, 'leaf'));
      for (let i = 0; i < levels; i++) value = message(lenField(5, message(lenField(1, value))));
      return tracesData([spanMessage([lenField(9, message(lenField(1, 'deep'), lenField(2, value)))])]);
    };
    assert.throws(() => decodeTraces(nested(300)), OtlpDecodeError);
    for (const levels of [50, 98, 99, 100, 101, 300]) assertSkimAgrees(decodeTraces, skimTraces, nested(levels));
    let leaf: unknown = decodeTraces(nested(50))[0].attrs[0][1];
    for (let i = 0; i < 50; i++) leaf = (leaf as unknown[])[0];
    assert.equal(leaf, 'leaf');
  });

  it('rejects or decodes every truncation of valid payloads, and rejects a cut inside a span', () => {
    const traces = spansToProtobuf(makeSpans());
    let rejected = 0;
    for (let cut = 0; cut < traces.length; cut++) {
      if (decodesOrRejects(decodeTraces, traces.subarray(0, cut)) === 'rejected') rejected++;
      assertSkimAgrees(decodeTraces, skimTraces, traces.subarray(0, cut));
    }
    assert.ok(rejected > traces.length * 0.9, `only ${rejected} of ${traces.length} truncations rejected`);
    const logs = logsToProtobuf(makeLogs());
    for (let cut = 0; cut < logs.length; cut++) {
      decodesOrRejects(decodeLogs, logs.subarray(0, cut));
      assertSkimAgrees(decodeLogs, skimLogs, logs.subarray(0, cut));
    }
    assert.throws(() => decodeTraces(traces.subarray(0, traces.length - 1)), OtlpDecodeError);
  });

  it('never throws anything but OtlpDecodeError on seeded random bytes, and finishes quickly', () => {
    const random = seededRandom(20261122);
    const startedMs = Date.now();
    const outcomes = { ok: 0, rejected: 0 };
    for (let i = 0; i < 5000; i++) {
      const bytes = new Uint8Array(1 + Math.floor(random() * 200));
      for (let j = 0; j < bytes.length; j++) bytes[j] = Math.floor(random() * 256);
      outcomes[decodesOrRejects(decodeTraces, bytes)]++;
      outcomes[decodesOrRejects(decodeLogs, bytes)]++;
      assertSkimAgrees(decodeTraces, skimTraces, bytes);
      assertSkimAgrees(decodeLogs, skimLogs, bytes);
    }
    assert.ok(outcomes.rejected > 9000, `rejected ${outcomes.rejected}`);
    assert.ok(Date.now() - startedMs < 5000);
  });

  it('never throws anything but OtlpDecodeError on seeded bit flips of valid payloads', () => {
    const random = seededRandom(7);
    const traces = spansToProtobuf(makeSpans());
    const logs = logsToProtobuf(makeLogs());
    let rejected = 0;
    for (let i = 0; i < 3000; i++) {
      for (const [decode, skim, original] of [
        [decodeTraces, skimTraces, traces],
        [decodeLogs, skimLogs, logs],
      ] as const) {
        const bytes = Uint8Array.from(original);
        for (let flips = 1 + Math.floor(random() * 3); flips > 0; flips--) {
          bytes[Math.floor(random() * bytes.length)] ^= 1 << Math.floor(random() * 8);
        }
        if (decodesOrRejects(decode, bytes) === 'rejected') rejected++;
        assertSkimAgrees(decode, skim, bytes);
      }
    }
    assert.ok(rejected > 0);
  });

  it('gives OtlpDecodeError a name and a short message', () => {
    try {
      decodeTraces(Uint8Array.from([0x0a, 0x05]));
      assert.fail('expected a throw');
    } catch (error) {
      assert.ok(error instanceof OtlpDecodeError);
      assert.equal(error.name, 'OtlpDecodeError');
      assert.equal(error.message, 'length past end');
    }
  });
});
