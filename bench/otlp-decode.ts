/**
 * OTLP decode benchmark: the svc decoder (bytes to SpanRow[]) against protobufjs static decode of
 * the same ExportTraceServiceRequest (bytes to generated message objects, no rows), one core, side
 * by side. Payload: 100 spans (10 traces x 10 spans) x 10 attributes, realistic strings and ints.
 * Run: node dist/bench/otlp-decode.js
 */
import { pathToFileURL } from 'node:url';
import refRoot from 'otlp-transformer-ref/build/src/generated/root.js';
import { decodeTraces } from '../src/otlp/decode-traces.js';
import { encodeTracesData } from '../src/otlp/encode-traces.js';

/** The slice of a protobufjs static message class this benchmark uses. */
interface StaticMessageType {
  encode(message: object): { finish(): Uint8Array };
  decode(bytes: Uint8Array): unknown;
}

/** The generated root's nested namespaces are not in its .d.ts (typed as a plain Root), hence the cast. */
const requestType = (
  refRoot as unknown as {
    opentelemetry: { proto: { collector: { trace: { v1: { ExportTraceServiceRequest: StaticMessageType } } } } };
  }
).opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;

const SPANS = 100;
const SPANS_PER_TRACE = 10;
const ROUNDS = 7;
const ROUND_MS = 500;

/** Deterministic pseudo-random numbers (mulberry32) so every run measures the same payload. */
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

function randomBytes(random: () => number, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = Math.floor(random() * 256);
  return bytes;
}

function hexOf(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('hex');
}

function str(key: string, value: string): object {
  return { key, value: { stringValue: value } };
}

function int(key: string, value: number): object {
  return { key, value: { intValue: value } };
}

/** Splits nanoseconds into protobufjs LongBits-like {low, high, unsigned}. */
function fixed64(ns: bigint): object {
  return { low: Number(ns & 0xffffffffn) | 0, high: Number(ns >> 32n) | 0, unsigned: true };
}

/** Builds the payload as an ExportTraceServiceRequest encoded by the reference protobufjs code. */
export function buildPayload(): Uint8Array {
  const random = seededRandom(42);
  const routes = ['/api/orders/{id}', '/api/cart', '/api/users/{id}/profile', '/api/checkout'];
  const spans: object[] = [];
  let traceId: Uint8Array = randomBytes(random, 16);
  let parentId: Uint8Array = new Uint8Array(0);
  const startNs = 1_795_000_000_000_000_000n;
  for (let i = 0; i < SPANS; i++) {
    if (i % SPANS_PER_TRACE === 0) {
      traceId = randomBytes(random, 16);
      parentId = new Uint8Array(0);
    }
    const spanId = randomBytes(random, 8);
    const route = routes[i % routes.length];
    const orderId = Math.floor(random() * 1_000_000);
    const spanStart = startNs + BigInt(i) * 1_000_000n;
    spans.push({
      traceId,
      spanId,
      parentSpanId: parentId,
      name: i % SPANS_PER_TRACE === 0 ? `GET ${route}` : i % 3 === 0 ? 'SELECT orders' : `HTTP GET ${route}`,
      kind: i % SPANS_PER_TRACE === 0 ? 2 : 3,
      startTimeUnixNano: fixed64(spanStart),
      endTimeUnixNano: fixed64(spanStart + BigInt(Math.floor(random() * 5_000_000))),
      attributes: [
        str('http.request.method', i % 5 === 0 ? 'POST' : 'GET'),
        str('http.route', route),
        str('url.full', `https://shop.example.com/api/orders/${orderId}?page=${i % 7}&lang=en`),
        int('http.response.status_code', i % 17 === 0 ? 500 : 200),
        str('server.address', 'orders.internal.svc.cluster.local'),
        int('server.port', 8080),
        int('enduser.id', Math.floor(random() * 10_000_000)),
        str('db.system', 'postgresql'),
        str('db.statement', 'SELECT id, status, total FROM orders WHERE id = $1 AND tenant_id = $2'),
        str('request.id', hexOf(randomBytes(random, 16))),
      ],
      droppedAttributesCount: 0,
      events: [],
      droppedEventsCount: 0,
      status: { code: i % 17 === 0 ? 2 : 0, message: i % 17 === 0 ? 'internal error' : '' },
      links: [],
      droppedLinksCount: 0,
      flags: 257,
    });
    parentId = spanId;
  }
  const request = {
    resourceSpans: [
      {
        resource: {
          attributes: [
            str('service.name', 'orders'),
            str('service.version', '2.14.1'),
            str('host.name', 'orders-7d9f8c6b5-x2kqp'),
            str('telemetry.sdk.language', 'nodejs'),
            str('telemetry.sdk.name', 'opentelemetry'),
            int('process.pid', 4242),
          ],
          droppedAttributesCount: 0,
        },
        scopeSpans: [{ scope: { name: '@opentelemetry/instrumentation-http', version: '0.214.0' }, spans }],
      },
    ],
  };
  return requestType.encode(request).finish();
}

/** Spans/s of one round of ROUND_MS; `sink` keeps the results alive so nothing is optimized away. */
function measureRound(decode: (bytes: Uint8Array) => unknown, payload: Uint8Array): number {
  let iterations = 0;
  let sink = 0;
  const startedNs = process.hrtime.bigint();
  const deadlineNs = startedNs + BigInt(ROUND_MS) * 1_000_000n;
  let nowNs = startedNs;
  while (nowNs < deadlineNs) {
    for (let i = 0; i < 50; i++) sink += decode(payload) === null ? 0 : 1;
    iterations += 50;
    nowNs = process.hrtime.bigint();
  }
  if (sink === 0) throw new Error('benchmark produced nothing');
  return (iterations * SPANS) / (Number(nowNs - startedNs) / 1e9);
}

/**
 * Best spans/s of each decoder over ROUNDS interleaved rounds: on a shared 2-core machine,
 * interleaving gives both sides the same share of quiet and busy moments.
 */
function measureSideBySide(payload: Uint8Array): { svc: number; protobufjs: number } {
  const protobufjsDecode = (bytes: Uint8Array): unknown => requestType.decode(bytes);
  let svc = 0;
  let protobufjs = 0;
  for (let round = 0; round < ROUNDS; round++) {
    protobufjs = Math.max(protobufjs, measureRound(protobufjsDecode, payload));
    svc = Math.max(svc, measureRound(decodeTraces, payload));
  }
  return { svc, protobufjs };
}

export interface OtlpDecodeFigures {
  svcSpansPerSec: number;
  protobufjsSpansPerSec: number;
  ratio: number;
  /** The bus path's re-encode, rows to TracesData, for reference (no target). */
  svcEncodeSpansPerSec: number;
}

/** Runs the benchmark and prints one figure per line. */
export async function main(): Promise<OtlpDecodeFigures> {
  const payload = buildPayload();
  const rows = decodeTraces(payload);
  if (rows.length !== SPANS || rows[SPANS - 1].attrs.length !== 10) throw new Error('payload decoded wrongly');
  // Warm both paths before timing, so JIT tiers are comparable.
  measureRound((bytes) => requestType.decode(bytes), payload);
  measureRound(decodeTraces, payload);
  const { svc: svcSpansPerSec, protobufjs: protobufjsSpansPerSec } = measureSideBySide(payload);
  const ratio = svcSpansPerSec / protobufjsSpansPerSec;
  const encodeRows = (): unknown => encodeTracesData(rows);
  measureRound(encodeRows, payload);
  let svcEncodeSpansPerSec = 0;
  for (let round = 0; round < 3; round++) svcEncodeSpansPerSec = Math.max(svcEncodeSpansPerSec, measureRound(encodeRows, payload));
  console.log(`otlp decode payload: ${SPANS} spans x 10 attributes, ${payload.length} bytes`);
  console.log(`otlp decode (svc, to rows): ${Math.round(svcSpansPerSec)} spans/s`);
  console.log(`otlp decode (protobufjs static, no rows): ${Math.round(protobufjsSpansPerSec)} spans/s`);
  console.log(`otlp decode ratio (svc / protobufjs static): ${ratio.toFixed(2)}x (target >= 1.5x)`);
  console.log(`otlp encode (svc, rows to TracesData): ${Math.round(svcEncodeSpansPerSec)} spans/s`);
  return { svcSpansPerSec, protobufjsSpansPerSec, ratio, svcEncodeSpansPerSec };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
