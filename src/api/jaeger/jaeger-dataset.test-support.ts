/**
 * The traces the Jaeger differential proof feeds into svc and into real Jaeger (as OTLP/HTTP JSON
 * exports), and the requests both are asked. Times are relative to a base so that the fixtures
 * recorded from Jaeger once can be compared with svc's answers on any later day.
 * Shared by scripts/jaeger/record-fixtures.ts (re-records) and jaeger-fixtures.e2e.test.ts (CI).
 */

type OtlpValue =
  | { stringValue: string }
  | { boolValue: boolean }
  | { intValue: string }
  | { doubleValue: number }
  | { bytesValue: string }
  | { arrayValue: { values: OtlpValue[] } }
  | { kvlistValue: { values: OtlpAttr[] } };
interface OtlpAttr {
  key: string;
  value: OtlpValue;
}

const str = (key: string, value: string): OtlpAttr => ({ key, value: { stringValue: value } });
const int = (key: string, value: number | bigint): OtlpAttr => ({ key, value: { intValue: String(value) } });
const dbl = (key: string, value: number): OtlpAttr => ({ key, value: { doubleValue: value } });
const bool = (key: string, value: boolean): OtlpAttr => ({ key, value: { boolValue: value } });
const bytes = (key: string, base64: string): OtlpAttr => ({ key, value: { bytesValue: base64 } });

/** Trace ids: the high half non-zero except TRACE.shortId, which Jaeger prints as 16 digits. */
export const TRACE = {
  checkout: '5b8efff798038103d269b633813fc60c',
  skewed: '7d1c4e2f00a1b2c3d4e5f60718293a4b',
  large: '9e0f1a2b3c4d5e6f708192a3b4c5d6e7',
  health: '1a2b3c4d5e6f70811a2b3c4d5e6f7081',
  slowError: '2b3c4d5e6f7081922b3c4d5e6f708192',
  messaging: '3c4d5e6f708192a33c4d5e6f708192a3',
  orphan: '4d5e6f708192a3b44d5e6f708192a3b4',
  shortId: '0000000000000000c0ffee0000000008',
} as const;

const KIND = { unspecified: 0, internal: 1, server: 2, client: 3, producer: 4, consumer: 5 } as const;

interface SpanSpec {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: keyof typeof KIND;
  /** ns after the base. */
  startNs: bigint;
  durationNs: bigint;
  attrs?: OtlpAttr[];
  events?: { atNs: bigint; name: string; attrs?: OtlpAttr[] }[];
  links?: { traceId: string; spanId: string; traceState?: string; attrs?: OtlpAttr[]; droppedAttributesCount?: number }[];
  status?: { code: 1 | 2; message?: string };
}

interface ResourceSpec {
  service: string;
  attrs: OtlpAttr[];
  scope: { name: string; version?: string };
}

const RESOURCES: Record<string, ResourceSpec> = {
  frontend: {
    service: 'frontend',
    attrs: [str('host.name', 'web-1'), str('service.version', '1.4.2'), int('process.pid', 4242)],
    scope: { name: 'io.opentelemetry.http', version: '1.2.0' },
  },
  // Types JSON alone does not keep, on a resource (process tags): a double with no fraction, bytes, an int64 past 2^53.
  checkout: {
    service: 'checkout',
    attrs: [
      str('host.name', 'app-1'),
      str('deployment.environment', 'prod'),
      dbl('host.cpu.limit', 4),
      bytes('host.key', 'q80='),
      int('host.boot_ns', -9007199254740995n),
    ],
    scope: { name: 'checkout-lib' },
  },
  payment: { service: 'payment', attrs: [str('host.name', 'app-2')], scope: { name: '' } },
  inventory: { service: 'inventory', attrs: [str('host.name', 'db-1'), bool('inventory.primary', true)], scope: { name: 'inventory-lib', version: '0.9' } },
  batch: { service: 'batch', attrs: [str('host.name', 'batch-1')], scope: { name: 'batch-lib' } },
  worker: { service: 'worker', attrs: [str('host.name', 'batch-2')], scope: { name: 'worker-lib' } },
  queue: { service: 'queue', attrs: [], scope: { name: 'queue-lib' } },
};

const MS = 1_000_000n;
const sid = (n: number) => n.toString(16).padStart(16, '0');

function checkoutTrace(): [string, SpanSpec][] {
  const t = TRACE.checkout;
  return [
    [
      'frontend',
      {
        traceId: t,
        spanId: sid(0x101),
        name: 'GET /checkout',
        kind: 'server',
        startNs: 0n,
        durationNs: 120n * MS + 777n,
        status: { code: 1 },
        attrs: [
          str('http.method', 'GET'),
          int('http.status_code', 200),
          str('http.route', '/checkout'),
          bool('user.premium', true),
          dbl('cart.ratio', 0.75),
          { key: 'cart.items', value: { arrayValue: { values: [{ stringValue: 'book' }, { stringValue: 'pen' }, { intValue: '3' }] } } },
          { key: 'order.meta', value: { kvlistValue: { values: [str('currency', 'EUR'), int('total', 42), bool('gift', false)] } } },
          { key: 'session.raw', value: { bytesValue: 'AQIDBA==' } },
          int('big.count', 9007199254740993n),
          int('negative.offset', -17),
          // Every type JSON alone does not keep, on its own and inside a list and a map (nested too).
          dbl('retry.factor', 2),
          dbl('zero.double', 0),
          int('big.negative', -9223372036854775808n),
          {
            key: 'mixed.list',
            value: {
              arrayValue: {
                values: [
                  { bytesValue: 'AAE=' },
                  { intValue: '9223372036854775807' },
                  { doubleValue: 3 },
                  { doubleValue: 2.5 },
                  { stringValue: 'x' },
                  { intValue: '7' },
                ],
              },
            },
          },
          {
            key: 'mixed.map',
            value: {
              kvlistValue: {
                values: [
                  bytes('raw', '/w=='),
                  int('huge', -9007199254740993n),
                  dbl('whole', 10),
                  { key: 'nested', value: { arrayValue: { values: [{ doubleValue: 1 }, { kvlistValue: { values: [int('deep', 12345678901234567n)] } }] } } },
                ],
              },
            },
          },
        ],
      },
    ],
    [
      'frontend',
      { traceId: t, spanId: sid(0x102), parentSpanId: sid(0x101), name: 'POST /api/checkout', kind: 'client', startNs: 5n * MS, durationNs: 110n * MS },
    ],
    [
      'checkout',
      {
        traceId: t,
        spanId: sid(0x201),
        parentSpanId: sid(0x102),
        name: 'POST /api/checkout',
        kind: 'server',
        startNs: 10n * MS,
        durationNs: 100n * MS,
        attrs: [str('order.id', 'o-981'), dbl('discount', 0.125)],
        // A plain link (FOLLOWS_FROM), one with trace state, attributes (unsorted) and a dropped
        // count, and one marked child_of (a second CHILD_OF reference in Jaeger's JSON).
        links: [
          { traceId: TRACE.health, spanId: sid(0x401) },
          {
            traceId: TRACE.skewed,
            spanId: sid(0x601),
            traceState: 'vendor=a1,other=b2',
            attrs: [str('link.reason', 'retry'), int('attempt', 2), dbl('weight', 1), bytes('token', 'AQ=='), int('sequence', 18014398509481985n)],
            droppedAttributesCount: 3,
          },
          { traceId: TRACE.health, spanId: sid(0x402), attrs: [str('opentracing.ref_type', 'child_of')] },
        ],
      },
    ],
    [
      'checkout',
      // A link to its own parent: Jaeger keeps one reference to the parent, typed by the link (FOLLOWS_FROM).
      {
        traceId: t,
        spanId: sid(0x202),
        parentSpanId: sid(0x201),
        name: 'charge card',
        kind: 'client',
        startNs: 15n * MS,
        durationNs: 60n * MS,
        // and a link with an empty (all-zero) trace id, which Jaeger drops with a warning.
        links: [
          { traceId: t, spanId: sid(0x201) },
          { traceId: '0'.repeat(32), spanId: sid(0x999) },
        ],
      },
    ],
    [
      'payment',
      {
        traceId: t,
        spanId: sid(0x301),
        parentSpanId: sid(0x202),
        name: 'charge',
        kind: 'server',
        startNs: 20n * MS,
        durationNs: 50n * MS,
        status: { code: 2, message: 'card declined' },
        attrs: [int('http.status_code', 402)],
        events: [
          {
            atNs: 60n * MS + 1_500n,
            name: 'exception',
            attrs: [str('exception.type', 'CardDeclined'), str('exception.message', 'card declined by issuer'), int('retry.count', 2)],
          },
          { atNs: 65n * MS, name: 'rollback' },
        ],
      },
    ],
    [
      'inventory',
      {
        traceId: t,
        spanId: sid(0x501),
        parentSpanId: sid(0x201),
        name: 'reserve',
        kind: 'server',
        startNs: 80n * MS,
        durationNs: 25n * MS,
        attrs: [str('db.system', 'postgresql'), int('db.rows', 3)],
        events: [
          {
            atNs: 82n * MS,
            name: 'cache miss',
            attrs: [
              str('cache.key', 'sku-1'),
              bool('cache.hit', false),
              dbl('cache.age_s', 12.5),
              dbl('cache.ttl_s', 60),
              bytes('cache.digest', '3q2+7w=='),
              int('cache.gen', 9007199254740999n),
            ],
          },
        ],
      },
    ],
  ];
}

function skewedTrace(): [string, SpanSpec][] {
  const t = TRACE.skewed;
  return [
    ['frontend', { traceId: t, spanId: sid(0x111), name: 'GET /skew', kind: 'server', startNs: 1_000n * MS, durationNs: 100n * MS }],
    // Starts 30 ms before its parent: the checkout host's clock is behind.
    [
      'checkout',
      { traceId: t, spanId: sid(0x211), parentSpanId: sid(0x111), name: 'POST /api/skew', kind: 'server', startNs: 970n * MS, durationNs: 40n * MS },
    ],
    // Starts after its parent ended: the payment host's clock is ahead.
    [
      'payment',
      {
        traceId: t,
        spanId: sid(0x311),
        parentSpanId: sid(0x111),
        name: 'charge',
        kind: 'server',
        startNs: 1_150n * MS,
        durationNs: 20n * MS,
        events: [{ atNs: 1_160n * MS, name: 'late' }],
      },
    ],
    // Longer than its parent and earlier: the delta is the start difference.
    ['payment', { traceId: t, spanId: sid(0x312), parentSpanId: sid(0x211), name: 'audit', kind: 'internal', startNs: 960n * MS, durationNs: 90n * MS }],
  ];
}

/** 2,000 spans: a batch root, 20 worker shards, 1,979 items under them. */
function largeTrace(): [string, SpanSpec][] {
  const t = TRACE.large;
  const base = 2_000n * MS;
  const spans: [string, SpanSpec][] = [
    ['batch', { traceId: t, spanId: sid(0x1000), name: 'run batch', kind: 'server', startNs: base, durationNs: 2_000n * MS, attrs: [int('batch.size', 1979)] }],
  ];
  let item = 0;
  for (let shard = 0; shard < 20; shard++) {
    const shardStart = base + BigInt(shard) * 100n * MS + MS;
    spans.push([
      'worker',
      {
        traceId: t,
        spanId: sid(0x2000 + shard),
        parentSpanId: sid(0x1000),
        name: `shard ${shard}`,
        kind: 'consumer',
        startNs: shardStart,
        durationNs: 95n * MS,
      },
    ]);
    const items = shard < 19 ? 99 : 1979 - 19 * 99;
    for (let k = 0; k < items; k++, item++) {
      spans.push([
        'worker',
        {
          traceId: t,
          spanId: sid(0x10000 + item),
          parentSpanId: sid(0x2000 + shard),
          name: 'process item',
          kind: 'internal',
          startNs: shardStart + BigInt(k) * 900_000n + 1_000n,
          durationNs: 800_000n + BigInt(k % 7) * 1_001n,
          attrs: [int('item.index', item), ...(item % 500 === 0 ? [str('item.flag', 'audit')] : [])],
          status: item % 250 === 7 ? { code: 2, message: `item ${item} failed` } : undefined,
        },
      ]);
    }
  }
  return spans;
}

function searchTraces(): [string, SpanSpec][] {
  return [
    [
      'frontend',
      {
        traceId: TRACE.health,
        spanId: sid(0x401),
        name: 'GET /health',
        kind: 'server',
        startNs: 5_000n * MS,
        durationNs: 2n * MS,
        attrs: [int('http.status_code', 200)],
      },
    ],
    [
      'frontend',
      {
        traceId: TRACE.slowError,
        spanId: sid(0x402),
        name: 'GET /search',
        kind: 'server',
        startNs: 6_000n * MS,
        durationNs: 1_500n * MS,
        status: { code: 2 },
        attrs: [int('http.status_code', 500), str('http.route', '/search')],
      },
    ],
    [
      'checkout',
      {
        traceId: TRACE.slowError,
        spanId: sid(0x403),
        parentSpanId: sid(0x402),
        name: 'search index',
        kind: 'unspecified',
        startNs: 6_100n * MS,
        durationNs: 1_300n * MS,
      },
    ],
    ['queue', { traceId: TRACE.messaging, spanId: sid(0x404), name: 'publish order', kind: 'producer', startNs: 7_000n * MS, durationNs: 3n * MS }],
    [
      'checkout',
      {
        traceId: TRACE.messaging,
        spanId: sid(0x405),
        parentSpanId: sid(0x404),
        name: 'consume order',
        kind: 'consumer',
        startNs: 7_010n * MS,
        durationNs: 600n * MS,
        status: { code: 1 },
      },
    ],
    // Its parent never arrives.
    [
      'inventory',
      { traceId: TRACE.orphan, spanId: sid(0x406), parentSpanId: sid(0xdead), name: 'restock', kind: 'internal', startNs: 8_000n * MS, durationNs: 7n * MS },
    ],
    ['frontend', { traceId: TRACE.shortId, spanId: sid(0x407), name: 'GET /short', kind: 'server', startNs: 9_000n * MS, durationNs: 4n * MS }],
  ];
}

function otlpSpan(spec: SpanSpec, baseNs: bigint) {
  return {
    traceId: spec.traceId,
    spanId: spec.spanId,
    ...(spec.parentSpanId === undefined ? {} : { parentSpanId: spec.parentSpanId }),
    name: spec.name,
    kind: KIND[spec.kind],
    startTimeUnixNano: String(baseNs + spec.startNs),
    endTimeUnixNano: String(baseNs + spec.startNs + spec.durationNs),
    attributes: spec.attrs ?? [],
    events: (spec.events ?? []).map((event) => ({ timeUnixNano: String(baseNs + event.atNs), name: event.name, attributes: event.attrs ?? [] })),
    links: (spec.links ?? []).map((link) => ({
      traceId: link.traceId,
      spanId: link.spanId,
      ...(link.traceState === undefined ? {} : { traceState: link.traceState }),
      ...(link.attrs === undefined ? {} : { attributes: link.attrs }),
      ...(link.droppedAttributesCount === undefined ? {} : { droppedAttributesCount: link.droppedAttributesCount }),
    })),
    ...(spec.status === undefined
      ? {}
      : { status: { code: spec.status.code, ...(spec.status.message === undefined ? {} : { message: spec.status.message }) } }),
  };
}

/** One OTLP/HTTP JSON export per trace, each span under its service's resource and scope. */
export function buildExports(baseNs: bigint): { traceId: string; spanCount: number; body: string }[] {
  const traces = [checkoutTrace(), skewedTrace(), largeTrace(), searchTraces()];
  const byTrace = new Map<string, [string, SpanSpec][]>();
  for (const spans of traces) for (const entry of spans) byTrace.set(entry[1].traceId, [...(byTrace.get(entry[1].traceId) ?? []), entry]);
  return [...byTrace].map(([traceId, spans]) => {
    const services = [...new Set(spans.map(([service]) => service))];
    const resourceSpans = services.map((service) => {
      const resource = RESOURCES[service]!;
      return {
        resource: { attributes: [str('service.name', resource.service), ...resource.attrs] },
        scopeSpans: [
          {
            scope: { name: resource.scope.name, ...(resource.scope.version === undefined ? {} : { version: resource.scope.version }) },
            spans: spans.filter(([s]) => s === service).map(([, spec]) => otlpSpan(spec, baseNs)),
          },
        ],
      };
    });
    return { traceId, spanCount: spans.length, body: JSON.stringify({ resourceSpans }) };
  });
}

export interface JaegerCase {
  name: string;
  /** Path and query under the Jaeger prefix (`/api/...`). */
  url: string;
}

/** Every request of the proof, with times derived from the base. */
export function buildCases(baseNs: bigint): JaegerCase[] {
  const us = (offsetMs: number) => String((baseNs + BigInt(offsetMs) * MS) / 1_000n);
  const ms = (offsetMs: number) => String((baseNs + BigInt(offsetMs) * MS) / MS);
  const range = `start=${us(-3_600_000)}&end=${us(3_600_000)}`;
  const iso = (offsetMs: number) => new Date(Number((baseNs + BigInt(offsetMs) * MS) / MS)).toISOString();
  const v3range = `query.start_time_min=${iso(-3_600_000)}&query.start_time_max=${iso(3_600_000)}`;
  const q = (value: string) => encodeURIComponent(value);
  const search = (params: string) => `/api/traces?${range}&${params}`;
  return [
    { name: 'services', url: '/api/services' },
    { name: 'operations legacy frontend', url: '/api/services/frontend/operations' },
    { name: 'operations legacy checkout', url: '/api/services/checkout/operations' },
    { name: 'operations legacy unknown service', url: '/api/services/nosuch/operations' },
    { name: 'operations frontend', url: '/api/operations?service=frontend' },
    { name: 'operations checkout', url: '/api/operations?service=checkout' },
    { name: 'operations checkout server', url: '/api/operations?service=checkout&spanKind=server' },
    { name: 'operations checkout consumer', url: '/api/operations?service=checkout&spanKind=consumer' },
    { name: 'operations unknown service', url: '/api/operations?service=nosuch' },
    { name: 'operations without service', url: '/api/operations' },
    { name: 'search frontend', url: search('service=frontend&limit=20') },
    { name: 'search frontend operation', url: search(`service=frontend&operation=${q('GET /checkout')}`) },
    { name: 'search tags status 500', url: search(`service=frontend&tags=${q('{"http.status_code":"500"}')}`) },
    { name: 'search tags error true', url: search(`service=payment&tags=${q('{"error":"true"}')}`) },
    { name: 'search tags typed values', url: search(`service=frontend&tags=${q('{"user.premium":"true","cart.ratio":"0.75","http.status_code":"200"}')}`) },
    { name: 'search tags resource attribute', url: search(`service=payment&tags=${q('{"host.name":"app-2"}')}`) },
    { name: 'search tags event attribute', url: search(`service=payment&tags=${q('{"exception.type":"CardDeclined"}')}`) },
    { name: 'search tags no match', url: search(`service=payment&tags=${q('{"exception.type":"Nope"}')}`) },
    { name: 'search tag key:value', url: search(`service=worker&tag=${q('item.flag:audit')}`) },
    { name: 'search min duration 1s', url: search('service=frontend&minDuration=1s') },
    { name: 'search max duration 50ms', url: search('service=frontend&maxDuration=50ms') },
    { name: 'search duration range', url: search('service=checkout&minDuration=500ms&maxDuration=1.2s') },
    { name: 'search limit 2', url: search('service=frontend&limit=2') },
    { name: 'search time range excludes', url: `/api/traces?service=frontend&start=${us(5_500)}&end=${us(7_000)}` },
    { name: 'search by trace ids', url: `/api/traces?traceID=${TRACE.health}&traceID=${TRACE.orphan}&traceID=ffffffffffffffff0000000000000001` },
    { name: 'trace checkout', url: `/api/traces/${TRACE.checkout}` },
    { name: 'trace checkout upper case', url: `/api/traces/${TRACE.checkout.toUpperCase()}` },
    { name: 'trace checkout range us', url: `/api/traces/${TRACE.checkout}?start=${us(-60_000)}&end=${us(60_000)}` },
    { name: 'trace skewed', url: `/api/traces/${TRACE.skewed}` },
    { name: 'trace large', url: `/api/traces/${TRACE.large}` },
    { name: 'trace slow error', url: `/api/traces/${TRACE.slowError}` },
    { name: 'trace messaging', url: `/api/traces/${TRACE.messaging}` },
    { name: 'trace orphan', url: `/api/traces/${TRACE.orphan}` },
    { name: 'trace short id', url: `/api/traces/${TRACE.shortId.slice(16)}` },
    { name: 'trace short id padded', url: `/api/traces/${TRACE.shortId}` },
    { name: 'dependencies', url: `/api/dependencies?endTs=${ms(3_600_000)}&lookback=7200000` },
    { name: 'dependencies service', url: `/api/dependencies?endTs=${ms(3_600_000)}&lookback=7200000&service=payment` },
    { name: 'bad trace id', url: '/api/traces/xyz' },
    { name: 'bad trace id too long', url: `/api/traces/${TRACE.checkout}00` },
    { name: 'unknown trace', url: '/api/traces/ffffffffffffffff0000000000000001' },
    { name: 'bad trace start', url: `/api/traces/${TRACE.checkout}?start=yesterday` },
    { name: 'bad search no service', url: `/api/traces?${range}` },
    { name: 'bad search duration', url: search('service=frontend&minDuration=abc') },
    { name: 'bad search duration unit', url: search('service=frontend&maxDuration=10') },
    { name: 'bad search duration order', url: search('service=frontend&minDuration=2s&maxDuration=1s') },
    { name: 'bad search limit text', url: search('service=frontend&limit=abc') },
    { name: 'bad search limit zero', url: search('service=frontend&limit=0') },
    { name: 'bad search limit negative', url: search('service=frontend&limit=-5') },
    { name: 'bad search limit too large', url: search('service=frontend&limit=100001') },
    { name: 'bad search start', url: '/api/traces?service=frontend&start=soon' },
    { name: 'bad search tags json', url: search(`service=frontend&tags=${q('{bad')}`) },
    { name: 'bad search tags number', url: search(`service=frontend&tags=${q('{"http.status_code":500}')}`) },
    { name: 'bad search tag form', url: search('service=frontend&tag=novalue') },
    { name: 'bad search trace id param', url: '/api/traces?traceID=xyz' },
    { name: 'bad dependencies end', url: '/api/dependencies?endTs=later' },
    { name: 'bad dependencies lookback', url: `/api/dependencies?endTs=${ms(0)}&lookback=1h` },
    { name: 'v3 services', url: '/api/v3/services' },
    { name: 'v3 operations checkout', url: '/api/v3/operations?service=checkout' },
    { name: 'v3 operations checkout server', url: '/api/v3/operations?service=checkout&span_kind=server' },
    { name: 'v3 operations unknown service', url: '/api/v3/operations?service=nosuch' },
    { name: 'v3 trace checkout', url: `/api/v3/traces/${TRACE.checkout}` },
    { name: 'v3 trace skewed', url: `/api/v3/traces/${TRACE.skewed}` },
    { name: 'v3 trace orphan', url: `/api/v3/traces/${TRACE.orphan}` },
    { name: 'v3 trace short id', url: `/api/v3/traces/${TRACE.shortId.slice(16)}` },
    { name: 'v3 trace unknown', url: '/api/v3/traces/ffffffffffffffff0000000000000001' },
    { name: 'v3 trace bad id', url: '/api/v3/traces/xyz' },
    { name: 'v3 trace bad start', url: `/api/v3/traces/${TRACE.checkout}?start_time=yesterday` },
    { name: 'v3 search frontend', url: `/api/v3/traces?query.service_name=frontend&${v3range}&query.num_traces=20` },
    {
      name: 'v3 search operation',
      url: `/api/v3/traces?query.service_name=checkout&query.operation_name=${q('consume order')}&${v3range}&query.num_traces=20`,
    },
    { name: 'v3 search duration', url: `/api/v3/traces?query.service_name=frontend&${v3range}&query.num_traces=20&query.duration_min=1s` },
    { name: 'v3 search no match', url: `/api/v3/traces?query.service_name=frontend&${v3range}&query.num_traces=20&query.duration_min=1h` },
    { name: 'v3 search default depth', url: `/api/v3/traces?query.service_name=inventory&${v3range}` },
    { name: 'v3 search without times', url: '/api/v3/traces?query.service_name=frontend' },
    { name: 'v3 search bad time', url: `/api/v3/traces?query.service_name=frontend&query.start_time_min=yesterday&query.start_time_max=${iso(3_600_000)}` },
    { name: 'v3 search bad duration', url: `/api/v3/traces?query.service_name=frontend&${v3range}&query.duration_max=10` },
    { name: 'v3 search bad num traces', url: `/api/v3/traces?query.service_name=frontend&${v3range}&query.num_traces=many` },
  ];
}
