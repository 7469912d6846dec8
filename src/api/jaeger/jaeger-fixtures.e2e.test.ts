/**
 * The proof against real Jaeger: the same OTLP traces that scripts/jaeger/record.sh fed into Jaeger
 * v2.13.0 (memory storage) go into a real `svc all-in-one`, and every case's answer under /jaeger
 * must equal Jaeger's recorded answer (fixtures/jaeger-answers.json) once what legitimately
 * differs is normalised: times relative to each run's base, process ids (p1, p2, ... by first use),
 * the order of lists whose order Jaeger leaves unspecified (services, operations, traces in a
 * search, spans in a trace, dependencies), and what Jaeger's memory store repeats or counts that
 * svc does not (each named below with its reason). Attribute types are compared as they are.
 */

import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { startAllInOne, tempDataDir, type RunningAllInOne } from '../../testing/all-in-one.js';
import { buildCases, buildExports, TRACE } from './jaeger-dataset.test-support.js';

const FIXTURE = new URL('../../../../src/api/jaeger/fixtures/jaeger-answers.json', import.meta.url);

interface Answer {
  name: string;
  url: string;
  status: number;
  body: unknown;
}
interface Fixture {
  jaeger: string;
  baseNs: string;
  answers: Answer[];
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type KeyValue = { key: string; type: string; value: Json };
type Span = {
  spanID: string;
  startTime: number;
  processID: string;
  references: { refType: string }[];
  tags: KeyValue[];
  logs: { timestamp: number; fields: KeyValue[] }[];
} & Record<string, Json>;
type Trace = { traceID: string; spans: Span[]; processes: Record<string, { serviceName: string; tags: KeyValue[] }> } & Record<string, Json>;

/** Cases where svc answers differently on purpose; each asserts its own expectation instead. */
const DIFFERENT_ON_PURPOSE = new Set([
  // Jaeger's memory store reads the `error` tag's text as a boolean and so matches only spans with an
  // OK status; svc finds the spans with an error status, as Jaeger's Badger, Cassandra and
  // Elasticsearch stores do (where `error=true` is an ordinary tag).
  'search tags error true',
]);

/** Cases whose limit picks traces in an order Jaeger leaves unspecified: same count, each trace as in the full search. */
const LIMITED = new Map([['search limit 2', 'search frontend']]);

function normaliseTrace(trace: Trace, baseUs: number): Json {
  const processKey = (id: string) => {
    const process = trace.processes[id]!;
    return JSON.stringify([process.serviceName, process.tags]);
  };
  const spans = trace.spans
    .map((span) => ({
      ...span,
      startTime: span.startTime - baseUs,
      processID: processKey(span.processID),
      logs: span.logs.map((log) => ({ timestamp: log.timestamp - baseUs, fields: log.fields })),
    }))
    .sort((a, b) => (a.spanID < b.spanID ? -1 : 1));
  return { ...trace, spans, processes: Object.keys(trace.processes).map(processKey).sort() } as unknown as Json;
}

const byJson = (a: Json, b: Json) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);

type OtlpValue = Record<string, Json>;
type OtlpAttr = { key: string; value: OtlpValue };
type OtlpSpan = {
  traceId: string;
  spanId: string;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes?: OtlpAttr[];
  events?: { timeUnixNano: string; attributes?: OtlpAttr[] }[];
} & Record<string, Json>;
type ResourceSpans = { resource: { attributes: OtlpAttr[] }; scopeSpans: { scope: Json; spans: OtlpSpan[] }[] };

/** Jaeger's attribute as svc's is compared with it. */
function otlpGaps(attr: OtlpAttr): OtlpAttr {
  const { value } = attr;
  // Jaeger's memory store hands API v3 its stored trace, and the adjusters add their warnings to it
  // again on every read: a trace read before repeats each warning. Each counts once.
  if (attr.key === '@jaeger@warnings') {
    const values = (value.arrayValue as { values: Json[] }).values;
    return {
      key: attr.key,
      value: { arrayValue: { values: values.filter((item, i) => values.findIndex((other) => JSON.stringify(other) === JSON.stringify(item)) === i) } },
    };
  }
  return attr;
}

/**
 * API v3's OTLP answer as a list of spans, each with its resource and scope, ordered by trace and
 * span id (Jaeger groups resources in the order it stored them), times relative to the base.
 */
function normaliseV3(body: { result: { resourceSpans: ResourceSpans[] } }, baseNs: bigint, jaeger: boolean): Json {
  const rel = (ns: string) => (BigInt(ns) - baseNs).toString();
  const attrs = (list: OtlpAttr[] | undefined) => (list === undefined ? undefined : jaeger ? list.map(otlpGaps) : list);
  const spans = body.result.resourceSpans.flatMap((rs) =>
    rs.scopeSpans.flatMap((ss) =>
      ss.spans.map((span) => {
        return {
          resource: attrs(rs.resource.attributes),
          scope: ss.scope,
          span: {
            ...span,
            startTimeUnixNano: rel(span.startTimeUnixNano),
            endTimeUnixNano: rel(span.endTimeUnixNano),
            ...(span.attributes === undefined ? {} : { attributes: attrs(span.attributes) }),
            ...(span.events === undefined
              ? {}
              : {
                  events: span.events.map((event) => ({
                    ...event,
                    timeUnixNano: rel(event.timeUnixNano),
                    ...(event.attributes === undefined ? {} : { attributes: attrs(event.attributes) }),
                  })),
                }),
          },
        };
      }),
    ),
  );
  return spans.sort((a, b) => (a.span.traceId + a.span.spanId < b.span.traceId + b.span.spanId ? -1 : 1)) as unknown as Json;
}

function normalise(name: string, body: unknown, baseUs: number, jaeger: boolean): Json {
  if (name.startsWith('v3 ')) {
    const v3 = body as { result?: { resourceSpans: ResourceSpans[] }; services?: string[]; operations?: Json[] };
    if (v3.result !== undefined)
      return normaliseV3(
        v3 as { result: { resourceSpans: ResourceSpans[] } },
        BigInt(baseUs) * 1_000n + BigInt(jaeger ? recordedBaseNsRest : liveBaseNsRest),
        jaeger,
      );
    if (v3.services !== undefined) return { services: [...v3.services].sort() };
    if (v3.operations !== undefined) return { operations: [...v3.operations].sort(byJson) };
    return body as Json;
  }
  const envelope = body as { data: Json } & Record<string, Json>;
  if (envelope === null || typeof envelope !== 'object' || !Array.isArray(envelope.data)) return envelope as Json;
  let data = envelope.data;
  if (data.length > 0 && typeof data[0] === 'object' && data[0] !== null && 'spans' in data[0]) {
    data = (data as unknown as Trace[]).map((trace) => normaliseTrace(trace, baseUs)).sort(byJson);
  } else if (name.startsWith('dependencies')) {
    // Jaeger's memory store also counts calls inside one service; svc's service graph has only calls between services.
    data = data
      .filter((link) => !jaeger || (link as { parent: string; child: string }).parent !== (link as { parent: string; child: string }).child)
      .sort(byJson);
  } else {
    data = [...data].sort(byJson);
  }
  return { ...envelope, data };
}

const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Fixture;
/** The base's nanoseconds below the microsecond, which API v3's ns times keep. */
const recordedBaseNsRest = Number(BigInt(fixture.baseNs) % 1_000n);
const recorded = new Map(fixture.answers.map((answer) => [answer.name, answer]));
const data = tempDataDir('svc-jaeger-proof-');
let svc: RunningAllInOne;
const baseNs = BigInt(Date.now() - 600_000) * 1_000_000n + 123_456n;
const liveBaseNsRest = Number(baseNs % 1_000n);
const cases = buildCases(baseNs);

async function ask(url: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${svc.apiUrl}/jaeger${url}`);
  return { status: response.status, body: JSON.parse(await response.text()) as unknown };
}

/** Polls until `ready` holds for the answer (the writer and the assembler store after the export's acknowledgement). */
async function waitFor(url: string, ready: (answer: { status: number; body: unknown }) => boolean): Promise<{ status: number; body: unknown }> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const answer = await ask(url);
    if (ready(answer) || Date.now() > deadline) return answer;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('the Jaeger query API against recorded Jaeger v2 answers', () => {
  before(async () => {
    svc = await startAllInOne({ dataDir: data.dir, env: { SVC__ASSEMBLER__GAP_MS: '500' } });
    for (const exported of buildExports(baseNs)) {
      const response = await fetch(`http://127.0.0.1:${svc.otlpHttpPort}/v1/traces`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: exported.body,
      });
      assert.equal(response.status, 200, await response.text());
    }
    for (const exported of buildExports(baseNs)) {
      const answer = await waitFor(
        `/api/traces/${exported.traceId}`,
        ({ status, body }) => status === 200 && (body as { data: Trace[] }).data[0]?.spans.length === exported.spanCount,
      );
      assert.equal(answer.status, 200, `trace ${exported.traceId} stored`);
    }
  });
  after(async () => {
    await svc?.stop();
    data.cleanup();
  });

  it('the fixture holds an answer for every case', () => {
    assert.deepEqual(
      cases.map((c) => c.name).filter((name) => !recorded.has(name)),
      [],
    );
  });

  const baseUs = Number(baseNs / 1_000n);
  const recordedBaseUs = Number(BigInt(fixture.baseNs) / 1_000n);
  for (const { name, url } of cases) {
    if (DIFFERENT_ON_PURPOSE.has(name) || LIMITED.has(name)) continue;
    it(`${name}: GET /jaeger${url.split('?')[0]} answers as Jaeger does`, async () => {
      const expected = recorded.get(name)!;
      const want = normalise(name, expected.body, recordedBaseUs, true);
      // Service edges are stored when the assembler closes each trace: wait for them to settle.
      const answer = name.startsWith('dependencies')
        ? await waitFor(url, ({ body }) => JSON.stringify(normalise(name, body, baseUs, false)) === JSON.stringify(want))
        : await ask(url);
      assert.equal(answer.status, expected.status, JSON.stringify(answer.body).slice(0, 400));
      assert.deepEqual(normalise(name, answer.body, baseUs, false), want);
    });
  }

  it('search limit 2: two of the traces the full search finds, each as Jaeger answers it', async () => {
    const full = normalise('search frontend', recorded.get('search frontend')!.body, recordedBaseUs, true) as { data: Json[] };
    const answer = await ask(cases.find((c) => c.name === 'search limit 2')!.url);
    assert.equal(answer.status, 200);
    const got = normalise('search limit 2', answer.body, baseUs, false) as { data: Json[] };
    assert.equal(got.data.length, 2);
    for (const trace of got.data)
      assert.ok(
        full.data.some((want) => JSON.stringify(want) === JSON.stringify(trace)),
        JSON.stringify(trace).slice(0, 200),
      );
  });

  it('search tags error true: the traces with a failing span of the service', async () => {
    const answer = await ask(cases.find((c) => c.name === 'search tags error true')!.url);
    assert.equal(answer.status, 200);
    const ids = (answer.body as { data: Trace[] }).data.map((trace) => trace.traceID);
    assert.deepEqual(ids, [TRACE.checkout]);
    const want = normalise('trace checkout', recorded.get('trace checkout')!.body, recordedBaseUs, true) as { data: Json[] };
    assert.deepEqual((normalise('x', answer.body, baseUs, false) as { data: Json[] }).data, want.data);
  });
});
