/**
 * Stories end to end: traces built and exported by the real OpenTelemetry JS SDK into a running
 * `svc all-in-one` (short gap_ms, baselines reloaded every second), read back through the API.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { xxh3 } from '@node-rs/xxhash';
import { startAllInOne, tempDataDir, type RunningAllInOne } from '../testing/all-in-one.js';
import { getJson, metricValue } from '../testing/http.js';
import { exportSpans, hrAt, hrToNs, traceExporter } from '../testing/otel.js';
import { createStore } from '../store/create-store.js';
import { stringifyJson } from '../util/json.js';

const GAP_MS = 300;
const data = tempDataDir('svc-e2e-stories-');
let svc: RunningAllInOne;
/** Service names unique to this run, so nothing else in the data directory can match. */
const tag = randomBytes(3).toString('hex');
const svcName = (name: string) => `${name}-${tag}`;

before(async () => {
  svc = await startAllInOne({
    dataDir: data.dir,
    env: { SVC__ASSEMBLER__GAP_MS: String(GAP_MS), SVC__ASSEMBLER__BASELINE_REFRESH_SECS: '1', SVC__WRITER__MAX_AGE_MS: '200' },
  });
});

/** The server's own warnings and errors, so a failed assertion shows why the server answered 5xx. */
function serverProblems(): string {
  return svc.logs
    .filter((entry) => Number(entry.level) >= 40)
    .map((entry) => JSON.stringify(entry))
    .join('\n');
}

after(async () => {
  await svc?.stop();
  data.cleanup();
});

/** One trace built with the SDK: a tracer provider per service, so each span carries its service's resource. */
class SdkTrace {
  private readonly memory = new InMemorySpanExporter();
  private readonly providers = new Map<string, BasicTracerProvider>();
  constructor(readonly nowMs = Date.now()) {}

  span(
    service: string,
    name: string,
    options: { kind: SpanKind; parent?: Span; startMs: number; endMs: number; error?: string; attributes?: Attributes },
  ): Span {
    let provider = this.providers.get(service);
    if (provider === undefined) {
      provider = new BasicTracerProvider({
        resource: resourceFromAttributes({ 'service.name': service }),
        spanProcessors: [new SimpleSpanProcessor(this.memory)],
      });
      this.providers.set(service, provider);
    }
    const context = options.parent === undefined ? ROOT_CONTEXT : trace.setSpan(ROOT_CONTEXT, options.parent);
    const span = provider
      .getTracer('svc-e2e-stories')
      .startSpan(name, { kind: options.kind, startTime: hrAt(this.nowMs, options.startMs, 7), attributes: options.attributes }, context);
    if (options.error !== undefined) span.setStatus({ code: SpanStatusCode.ERROR, message: options.error });
    span.end(hrAt(this.nowMs, options.endMs, 9));
    return span;
  }

  spans(): ReadableSpan[] {
    const finished = this.memory.getFinishedSpans();
    this.memory.reset();
    return finished;
  }
}

async function send(spans: ReadableSpan[]): Promise<void> {
  const exporter = traceExporter('http-protobuf', { grpcPort: svc.grpcPort, otlpHttpPort: svc.otlpHttpPort }, false);
  await exportSpans(exporter, spans);
  await exporter.shutdown();
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

async function metrics(): Promise<string> {
  return (await fetch(`${svc.apiUrl}/metrics`)).text();
}

interface ApiStory {
  story_id: string;
  fingerprint: string;
  kind: string;
  endpoint_service: string;
  endpoint_name: string;
  root_cause: { service: string; span_name: string; span_kind: string; span_id: string; message: string; exception_type: string };
  summary: string;
  path_services: string[];
  path_spans: { span_id: string; service: string; name: string; status: string }[];
  baseline_diff: { new_ops: string[]; missing_ops: string[]; slower_ops: { op: string; duration_ns: number; baseline_p95_ns: number }[] } | null;
  also_failed: { span_id: string; service: string; span_name: string; message: string; end_ns: bigint | number }[];
  span_count: number;
  flags: string[];
}

async function waitForStory(traceId: string): Promise<ApiStory> {
  return until(`the story of ${traceId}`, async () => {
    const response = await getJson(`${svc.apiUrl}/api/v1/stories/${traceId}`);
    return response.status === 200 ? (response.body as ApiStory) : undefined;
  });
}

/** The contract's fingerprint computed here from its definition, independently of the analysis code. */
function expectedFingerprint(parts: [string, string, string, string, string, string]): string {
  return xxh3.xxh64(Buffer.concat(parts.flatMap((part) => [Buffer.from(part, 'utf8'), Buffer.alloc(1)]))).toString();
}

/** frontend -> cart -> payments; payments' db call fails first, cart's cache write fails later. */
function checkoutTrace(t: SdkTrace, endpoint: string, cardNumber: string) {
  const root = t.span(svcName('frontend'), endpoint, { kind: SpanKind.SERVER, startMs: -400, endMs: -50, error: 'upstream failed' });
  const callCart = t.span(svcName('frontend'), 'POST cart', { kind: SpanKind.CLIENT, parent: root, startMs: -390, endMs: -60, error: '' });
  const cart = t.span(svcName('cart'), 'POST /cart/checkout', { kind: SpanKind.SERVER, parent: callCart, startMs: -385, endMs: -65, error: 'payment failed' });
  const cache = t.span(svcName('cart'), 'cache set', { kind: SpanKind.INTERNAL, parent: cart, startMs: -380, endMs: -100, error: 'cache unavailable' });
  const callPayments = t.span(svcName('cart'), 'POST payments', { kind: SpanKind.CLIENT, parent: cart, startMs: -370, endMs: -150, error: '' });
  const payments = t.span(svcName('payments'), 'charge', { kind: SpanKind.SERVER, parent: callPayments, startMs: -365, endMs: -155, error: 'charge failed' });
  const db = t.span(svcName('payments'), 'db query', {
    kind: SpanKind.INTERNAL,
    parent: payments,
    startMs: -360,
    endMs: -200,
    error: `card declined ${cardNumber}`,
  });
  return { root, cache, db, traceId: root.spanContext().traceId };
}

describe('stories through the real SDK', () => {
  let firstTraceId = '';
  let firstRoot: Span | undefined;

  test('a three-service trace with a failing leaf gives the expected story', async () => {
    const t = new SdkTrace();
    const built = checkoutTrace(t, 'GET /checkout', '4242');
    firstTraceId = built.traceId;
    firstRoot = built.root;
    await send(t.spans());
    const story = await waitForStory(built.traceId);
    assert.equal(story.kind, 'error');
    assert.equal(story.story_id, built.traceId);
    assert.equal(story.endpoint_service, svcName('frontend'));
    assert.equal(story.endpoint_name, 'GET /checkout');
    assert.deepEqual(story.root_cause, {
      service: svcName('payments'),
      span_name: 'db query',
      span_kind: 'internal',
      span_id: built.db.spanContext().spanId,
      message: 'card declined 4242',
      exception_type: '',
    });
    assert.deepEqual(story.path_services, [svcName('frontend'), svcName('cart'), svcName('payments')]);
    assert.deepEqual(
      story.path_spans.map((s) => s.name),
      ['GET /checkout', 'POST cart', 'POST /cart/checkout', 'POST payments', 'charge', 'db query'],
    );
    assert.equal(story.summary, `${svcName('payments')} failed in "db query": card declined 4242`);
    assert.deepEqual(
      story.also_failed.map(({ end_ns: _end, ...rest }) => rest),
      [{ span_id: built.cache.spanContext().spanId, service: svcName('cart'), span_name: 'cache set', message: 'cache unavailable' }],
    );
    assert.equal(BigInt(story.also_failed[0].end_ns), hrToNs(hrAt(t.nowMs, -100, 9)), 'end_ns exact to the nanosecond');
    assert.equal(story.span_count, 7);
    assert.deepEqual(story.flags, []);
    assert.equal(story.baseline_diff, null, 'no trusted baseline yet');
    assert.equal(story.fingerprint, expectedFingerprint(['error', svcName('frontend'), 'GET /checkout', svcName('payments'), 'db query', 'card declined <*>']));
  });

  test('the same failure from two endpoints gives two groups with stable fingerprints', async () => {
    const traceIds: string[] = [];
    const t = new SdkTrace();
    for (const [endpoint, card] of [
      ['GET /checkout', '1111'],
      ['GET /buy-now', '2222'],
      ['GET /buy-now', '3333'],
    ] as const) {
      traceIds.push(checkoutTrace(t, endpoint, card).traceId);
    }
    await send(t.spans());
    const stories = await Promise.all(traceIds.map(waitForStory));
    const checkoutFp = expectedFingerprint(['error', svcName('frontend'), 'GET /checkout', svcName('payments'), 'db query', 'card declined <*>']);
    const buyFp = expectedFingerprint(['error', svcName('frontend'), 'GET /buy-now', svcName('payments'), 'db query', 'card declined <*>']);
    assert.deepEqual(
      stories.map((s) => s.fingerprint),
      [checkoutFp, buyFp, buyFp],
    );
    assert.notEqual(checkoutFp, buyFp);

    const response = await until('the story groups', async () => {
      const answer = await getJson(`${svc.apiUrl}/api/v1/story-groups?service=${encodeURIComponent(svcName('payments'))}`);
      assert.equal(answer.status, 200, `${stringifyJson(answer.body)}\n${serverProblems()}`);
      return answer;
    });
    const groups = response.body as { fingerprint: string; kind: string; stories: number; endpoint_name: string; rc_span_name: string }[];
    const byFingerprint = new Map(groups.map((g) => [g.fingerprint, g]));
    assert.equal(groups.length, 2, stringifyJson(groups));
    assert.equal(byFingerprint.get(checkoutFp)?.stories, 2, "the first test's story and this one");
    assert.equal(byFingerprint.get(checkoutFp)?.endpoint_name, 'GET /checkout');
    assert.equal(byFingerprint.get(buyFp)?.stories, 2);
    assert.equal(byFingerprint.get(buyFp)?.rc_span_name, 'db query');
  });

  test('a trace with no error and no baseline gives no story but is found by trace search', async () => {
    const t = new SdkTrace();
    const root = t.span(svcName('quiet'), 'GET /ping', { kind: SpanKind.SERVER, startMs: -30, endMs: -10 });
    t.span(svcName('quiet'), 'compute', { kind: SpanKind.INTERNAL, parent: root, startMs: -25, endMs: -15 });
    const traceId = root.spanContext().traceId;
    await send(t.spans());
    const row = await until('the trace in search', async () => {
      const response = await getJson(`${svc.apiUrl}/api/v1/traces/search?service=${encodeURIComponent(svcName('quiet'))}`);
      assert.equal(response.status, 200, `${stringifyJson(response.body)}\n${serverProblems()}`);
      return (response.body as { trace_id: string; story_id: string | null; story_kind: string | null; span_count: number; is_error: boolean }[]).find(
        (r) => r.trace_id === traceId,
      );
    });
    assert.equal(row.story_id, null);
    assert.equal(row.story_kind, null);
    assert.equal(row.span_count, 2);
    assert.equal(row.is_error, false);
    const story = await getJson(`${svc.apiUrl}/api/v1/stories/${traceId}`);
    assert.equal(story.status, 404);
  });

  test('60 normal traces then a slow one give a slow story with a baseline diff', async () => {
    const service = svcName('catalog');
    const t = new SdkTrace();
    for (let i = 0; i < 60; i++) {
      const root = t.span(service, 'GET /items', { kind: SpanKind.SERVER, startMs: -60 - i, endMs: -40 - i + (i % 4) });
      t.span(service, 'SELECT items', { kind: SpanKind.CLIENT, parent: root, startMs: -58 - i, endMs: -48 - i });
    }
    const trustedBefore = metricValue(await metrics(), 'svc_assembler_trusted_baselines');
    await send(t.spans());
    await until('a trusted baseline for the endpoint', async () =>
      metricValue(await metrics(), 'svc_assembler_trusted_baselines') > trustedBefore ? true : undefined,
    );

    const slow = new SdkTrace();
    const root = slow.span(service, 'GET /items', { kind: SpanKind.SERVER, startMs: -900, endMs: -100 });
    const query = slow.span(service, 'SELECT items', { kind: SpanKind.CLIENT, parent: root, startMs: -890, endMs: -200 });
    slow.span(service, 'GET recommendations', { kind: SpanKind.CLIENT, parent: root, startMs: -190, endMs: -110 });
    await send(slow.spans());
    const story = await waitForStory(root.spanContext().traceId);
    assert.equal(story.kind, 'slow');
    assert.equal(story.root_cause.span_id, query.spanContext().spanId, 'the span holding most critical-path time');
    assert.equal(story.root_cause.message, 'slow');
    assert.match(
      story.summary,
      new RegExp(`^GET /items \\(${service}\\) took 800 ms against a p99 of 2\\d(\\.\\d+)? ms; ${service} "SELECT items" held 690 ms of the critical path$`),
    );
    assert.ok(story.baseline_diff !== null);
    assert.deepEqual(story.baseline_diff.new_ops, [`${service}: GET recommendations`]);
    assert.deepEqual(story.baseline_diff.missing_ops, []);
    assert.deepEqual(story.baseline_diff.slower_ops.map((o) => o.op).sort(), [`${service}: GET /items`, `${service}: SELECT items`]);
    assert.equal(story.fingerprint, expectedFingerprint(['slow', service, 'GET /items', service, 'SELECT items', 'slow']));
  });

  test('a late span is counted and stored', async () => {
    assert.ok(firstRoot !== undefined, 'needs the first test');
    const lateBefore = metricValue(await metrics(), 'svc_assembler_late_items_total');
    const t = new SdkTrace();
    const late = t.span(svcName('frontend'), 'late audit', { kind: SpanKind.INTERNAL, parent: firstRoot, startMs: -45, endMs: -40, error: 'late failure' });
    await send(t.spans());
    await until('the late count', async () => (metricValue(await metrics(), 'svc_assembler_late_items_total') >= lateBefore + 1 ? true : undefined));
    const stored = await until('the late span in the trace', async () => {
      const response = await getJson(`${svc.apiUrl}/api/v1/traces/${firstTraceId}`);
      const spans = (response.body as { spans?: { span_id: string }[] }).spans ?? [];
      return spans.some((s) => s.span_id === late.spanContext().spanId) ? spans : undefined;
    });
    assert.equal(stored.length, 8);
    const story = await waitForStory(firstTraceId);
    assert.equal(story.span_count, 7, 'the story is not recomputed');
  });
});

describe('graceful stop', () => {
  test('a failing trace sent just before SIGTERM still gets its story stored, and the stop is clean', async () => {
    const t = new SdkTrace();
    const root = t.span(svcName('shutdown'), 'POST /last', { kind: SpanKind.SERVER, startMs: -20, endMs: -5, error: 'stopped mid-flight' });
    await send(t.spans());
    assert.equal(await svc.stop(), 0);
    // The process is gone, so its data directory can be opened here (chDB locks it per process).
    const store = await createStore({ clickhouse: { url: '', database: 'svc' }, embedded: { data_dir: data.dir } });
    try {
      const rows = await store.query<{ summary: string }>('SELECT summary FROM stories WHERE story_id = {id:String}', { id: root.spanContext().traceId });
      assert.deepEqual(rows, [{ summary: `${svcName('shutdown')} failed in "POST /last": stopped mid-flight` }]);
    } finally {
      await store.close();
    }
    const failures = svc.logs.filter((entry) => entry.component === 'assembler' && Number(entry.level) >= 50);
    assert.deepEqual(failures, []);
  });
});
