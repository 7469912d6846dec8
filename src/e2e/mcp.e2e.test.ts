/**
 * The MCP endpoint end to end: a running `svc all-in-one` with authentication on, fed through the
 * real OpenTelemetry SDK with a failing request and a 2,000-span trace, asked through the MCP
 * SDK's own client over Streamable HTTP (/mcp) and over stdio (`svc mcp`).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { SpanKind, type Span } from '@opentelemetry/api';
import { hash } from '@node-rs/argon2';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { startAllInOne, tempDataDir, type RunningAllInOne } from '../testing/all-in-one.js';
import { buildSampleLogs, exportLogs, logExporter } from '../testing/otel.js';
import { SdkTraces, sendSpans, until } from '../testing/sdk-trace.js';
import { MAX_ANSWER_BYTES } from '../mcp/bound.js';

const ROOT = new URL('../../../', import.meta.url).pathname;
const USERNAME = 'agent';
const PASSWORD = `pw-${randomBytes(6).toString('hex')}`;
const BASIC = `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString('base64')}`;
const TOOL_NAMES = [
  'whats_wrong',
  'list_story_groups',
  'get_story_group',
  'get_story',
  'search_traces',
  'get_trace',
  'list_services',
  'get_service_health',
  'list_log_alerts',
  'search_log_templates',
  'get_log_template',
];

const data = tempDataDir('svc-e2e-mcp-');
const tag = randomBytes(3).toString('hex');
const svcName = (name: string) => `${name}-${tag}`;
let svc: RunningAllInOne;
let client: Client;

type Row = Record<string, unknown>;

/** One request, the way the stories test builds it: frontend -> cart -> payments, whose db query fails. */
const failing = { traceId: '', dbSpanId: '', dbSpan: undefined as Span | undefined };
let bigTraceId = '';
let bigErrorSpanIds: string[] = [];

/**
 * The failing request is stamped two minutes back: the incident analysis leaves the minute still
 * filling out of its window, and whats_wrong's incident must see the request's story group at once.
 */
const FAILING_AGO_MS = 120_000;

async function feed(): Promise<void> {
  const t = new SdkTraces(Date.now() - FAILING_AGO_MS);
  const root = t.span(svcName('frontend'), 'GET /checkout', { kind: SpanKind.SERVER, startMs: -400, endMs: -50, error: 'upstream failed' });
  const callCart = t.span(svcName('frontend'), 'POST cart', { kind: SpanKind.CLIENT, parent: root, startMs: -390, endMs: -60, error: '' });
  const cart = t.span(svcName('cart'), 'POST /cart/checkout', { kind: SpanKind.SERVER, parent: callCart, startMs: -385, endMs: -65, error: 'payment failed' });
  const callPayments = t.span(svcName('cart'), 'POST payments', { kind: SpanKind.CLIENT, parent: cart, startMs: -370, endMs: -150, error: '' });
  const payments = t.span(svcName('payments'), 'charge', { kind: SpanKind.SERVER, parent: callPayments, startMs: -365, endMs: -155, error: 'charge failed' });
  const db = t.span(svcName('payments'), 'db query', { kind: SpanKind.INTERNAL, parent: payments, startMs: -360, endMs: -200, error: 'card declined 4242' });
  failing.traceId = root.spanContext().traceId;
  failing.dbSpanId = db.spanContext().spanId;
  const spans = t.take();
  await sendSpans(svc, spans);
  const exporter = logExporter('http-protobuf', svc, false);
  await exportLogs(
    exporter,
    buildSampleLogs(
      svcName('payments'),
      t.nowMs,
      spans.find((span) => span.spanContext().spanId === failing.dbSpanId),
      tag,
    ),
  );
  await exporter.shutdown();

  // A 2,000-span trace: an 8-ary tree over five services, every 250th span failing.
  const big = new SdkTraces();
  const bigSpans: Span[] = [big.span(svcName('batch'), 'POST /import', { kind: SpanKind.SERVER, startMs: -3000, endMs: -20 })];
  for (let i = 1; i < 2000; i++) {
    const parent = bigSpans[Math.floor((i - 1) / 8)];
    const startMs = -2900 + (i % 1000) * 2;
    const error = i % 250 === 0 ? `row ${i} rejected` : undefined;
    bigSpans.push(big.span(svcName(`worker${i % 5}`), `step ${i % 40}`, { kind: SpanKind.INTERNAL, parent, startMs, endMs: startMs + 1 + (i % 7), error }));
  }
  bigTraceId = bigSpans[0].spanContext().traceId;
  bigErrorSpanIds = bigSpans.filter((_, i) => i % 250 === 0 && i > 0).map((span) => span.spanContext().spanId);
  await sendSpans(svc, big.take());
}

before(async () => {
  svc = await startAllInOne({
    dataDir: data.dir,
    env: {
      SVC__ASSEMBLER__GAP_MS: '300',
      SVC__WRITER__MAX_AGE_MS: '200',
      SVC__LOGMINER__FLUSH_MS: '100',
      SVC__AUTH__ENABLED: 'true',
      SVC__AUTH__USERNAME: USERNAME,
      SVC__AUTH__PASSWORD_HASH: await hash(PASSWORD),
    },
  });
  await feed();
  client = new Client({ name: 'svc-e2e', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${svc.apiUrl}/mcp`), { requestInit: { headers: { authorization: BASIC } } }));
});

after(async () => {
  await client?.close();
  await svc?.stop();
  data.cleanup();
});

async function call(name: string, args: Row = {}): Promise<CallToolResult> {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

/** A successful answer: structured content, a text summary, and within the byte bound. */
function structured(result: CallToolResult, what: string): Row {
  const text = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  assert.notEqual(result.isError, true, `${what} failed: ${text}`);
  assert.ok(result.structuredContent !== undefined, `${what}: structured content`);
  assert.ok(text.length > 0, `${what}: a text summary`);
  const bytes = Buffer.byteLength(JSON.stringify(result.structuredContent)) + Buffer.byteLength(text);
  assert.ok(bytes <= MAX_ANSWER_BYTES, `${what}: ${bytes} bytes is over the bound`);
  return result.structuredContent as Row;
}

function errorText(result: CallToolResult): string {
  assert.equal(result.isError, true, `expected a tool error, got ${JSON.stringify(result.structuredContent)}`);
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

describe('MCP over Streamable HTTP', () => {
  test('without credentials /mcp is refused; with them it is served', async () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    };
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const refused = await fetch(`${svc.apiUrl}/mcp`, { method: 'POST', headers, body: JSON.stringify(initialize) });
    assert.equal(refused.status, 401);
    assert.deepEqual(await refused.json(), { error: 'unauthorized' });
    assert.match(refused.headers.get('www-authenticate') ?? '', /^Basic /);
    // A browser's GET of /mcp is the app's, open like every client path; an MCP client's GET is refused.
    assert.notEqual((await fetch(`${svc.apiUrl}/mcp`, { headers: { accept: 'text/html' } })).status, 401);
    assert.equal((await fetch(`${svc.apiUrl}/mcp`, { headers: { accept: 'text/event-stream' } })).status, 405);
    const sdkWithout = new Client({ name: 'no-credentials', version: '1.0.0' });
    await assert.rejects(sdkWithout.connect(new StreamableHTTPClientTransport(new URL(`${svc.apiUrl}/mcp`))));
    const served = await fetch(`${svc.apiUrl}/mcp`, { method: 'POST', headers: { ...headers, authorization: BASIC }, body: JSON.stringify(initialize) });
    assert.equal(served.status, 200);
    const body = (await served.json()) as { result: { serverInfo: { name: string }; capabilities: Row } };
    assert.equal(body.result.serverInfo.name, 'svc');
    assert.ok(body.result.capabilities.tools !== undefined);
  });

  test('initialize and list tools: every tool read-only, with a description and an argument schema', async () => {
    assert.equal(client.getServerVersion()?.name, 'svc');
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((tool) => tool.name).sort(), [...TOOL_NAMES].sort());
    for (const tool of tools) {
      assert.equal(tool.annotations?.readOnlyHint, true, tool.name);
      assert.ok((tool.description ?? '').length > 80, `${tool.name} has a precise description`);
      assert.equal(tool.inputSchema.type, 'object');
      assert.equal((tool.inputSchema as Row).additionalProperties, false, `${tool.name} refuses unknown arguments`);
    }
    const search = tools.find((tool) => tool.name === 'search_traces')!;
    assert.deepEqual(Object.keys(search.inputSchema.properties ?? {}).sort(), [
      'endpoint',
      'errors',
      'limit',
      'max_ms',
      'min_ms',
      'service',
      'since',
      'touched',
      'until',
    ]);
  });

  test("the failing request's root cause is found through the tools alone", async () => {
    const group = await until('the error group in whats_wrong', async () => {
      const answer = structured(await call('whats_wrong', { service: svcName('payments') }), 'whats_wrong');
      return (answer.error_groups as Row[]).find((row) => row.rc_service === svcName('payments'));
    });
    assert.equal(group.rc_span_name, 'db query');
    assert.equal(group.endpoint_name, 'GET /checkout');
    assert.equal(typeof group.last_seen_ns, 'string', '*_ns values are exact decimal strings');
    // The incident leads the answer: the group had no story in the hour before, so it is new news.
    const answer = structured(await call('whats_wrong', { service: svcName('payments') }), 'whats_wrong');
    assert.deepEqual(Object.keys(answer).slice(0, 3), ['incident', 'suspects_total', 'suspects']);
    assert.equal((answer.incident as Row).since, '15m');
    assert.match(String((answer.incident as Row).window_to_ns), /^[0-9]{19}$/);
    const news = (answer.new_or_rising_groups as Row[]).find((row) => row.fingerprint === group.fingerprint);
    assert.deepEqual([news?.trend, news?.baseline_stories, news?.rc_service], ['new', 0, svcName('payments')]);
    const story = structured(await call('get_story', { story_id: String(group.sample_story_id) }), 'get_story');
    assert.equal(story.story_id, failing.traceId);
    assert.deepEqual(story.root_cause, {
      service: svcName('payments'),
      span_name: 'db query',
      span_kind: 'internal',
      span_id: failing.dbSpanId,
      message: 'card declined 4242',
      exception_type: '',
    });
    assert.deepEqual(story.path_services, [svcName('frontend'), svcName('cart'), svcName('payments')]);
    assert.ok(((story.critical_path as Row).top as Row[]).length > 0, 'critical-path contributors');
    assert.match(String(story.ts_ns), /^[0-9]{19}$/);
  });

  test('every other tool answers with structured content within the bound', async () => {
    const groups = structured(await call('list_story_groups', { kind: 'error', service: svcName('payments') }), 'list_story_groups');
    const group = (groups.groups as Row[])[0];
    assert.equal(group.rc_service, svcName('payments'));
    const detail = structured(await call('get_story_group', { fingerprint: String(group.fingerprint) }), 'get_story_group');
    assert.equal((detail.examples as Row[])[0].story_id, failing.traceId);

    const traces = await until('the failing trace in search_traces', async () => {
      const answer = structured(await call('search_traces', { service: svcName('payments'), touched: true, errors: true }), 'search_traces');
      return (answer.traces as Row[]).find((row) => row.trace_id === failing.traceId);
    });
    assert.equal(traces.story_kind, 'error');

    const trace = structured(await call('get_trace', { trace_id: failing.traceId }), 'get_trace');
    assert.equal(trace.summarised, false);
    const spans = trace.spans as Row[];
    assert.deepEqual(
      spans.map((span) => span.path),
      ['0', '0.0', '0.0.0', '0.0.0.0', '0.0.0.0.0', '0.0.0.0.0.0'],
    );
    assert.equal(spans[5].span_id, failing.dbSpanId);
    assert.equal(spans[5].error, 'card declined 4242');
    assert.equal(trace.story_id, failing.traceId);

    const services = structured(await call('list_services'), 'list_services');
    assert.ok((services.services as string[]).includes(svcName('frontend')));
    // Service edges are written by the assembler on its own flush (every second), after the story.
    const health = await until("the cart service's edges in get_service_health", async () => {
      const answer = structured(await call('get_service_health', { service: svcName('cart') }), 'get_service_health');
      return (answer.callers as Row[]).length > 0 && (answer.callees as Row[]).length > 0 ? answer : undefined;
    });
    assert.equal(health.calls, 1);
    assert.equal(health.errors, 1);
    assert.deepEqual(
      (health.callers as Row[]).map((row) => row.service),
      [svcName('frontend')],
    );
    assert.deepEqual(
      (health.callees as Row[]).map((row) => [row.service, row.error_rate]),
      [[svcName('payments'), 1]],
    );

    structured(await call('list_log_alerts', { service: svcName('payments') }), 'list_log_alerts');
    const template = await until('the log template', async () => {
      const answer = structured(await call('search_log_templates', { service: svcName('payments'), q: 'db timeout' }), 'search_log_templates');
      return (answer.templates as Row[])[0];
    });
    const templateDetail = structured(await call('get_log_template', { template_id: String(template.template_id) }), 'get_log_template');
    assert.ok(
      ((templateDetail.recent as Row[]) ?? []).some((hit) => hit.trace_id === failing.traceId),
      'a recent hit leads back to the trace',
    );
  });

  test('a 2,000-span trace comes back summarised within the byte bound', async () => {
    const answer = await until('the 2,000-span trace', async () => {
      const result = await call('get_trace', { trace_id: bigTraceId });
      if (result.isError === true) return undefined;
      const topology = structured(result, 'get_trace (2,000 spans)');
      return topology.span_count === 2000 ? topology : undefined;
    });
    assert.equal(answer.summarised, true);
    assert.equal(answer.error_spans, 7);
    const shown = answer.spans as Row[];
    assert.ok(shown.length <= 100 && shown.length > 10, `${shown.length} spans listed`);
    assert.equal(shown[0].path, '0');
    for (const id of bigErrorSpanIds)
      assert.ok(
        shown.some((span) => span.span_id === id),
        `failing span ${id} is listed`,
      );
    assert.ok((answer.operations as Row[]).length > 0);
    assert.equal((answer.truncated as Row).total, 2000);
    // Asking for more spans than fit gives as many as fit, still within the bound (checked by structured()).
    const widest = structured(await call('get_trace', { trace_id: bigTraceId, max_spans: 300 }), 'get_trace max_spans 300');
    assert.ok((widest.spans as Row[]).length > shown.length && (widest.spans as Row[]).length < 300, `${(widest.spans as Row[]).length} spans listed`);
    // Expanding a hidden subtree lists only that part.
    const collapsed = shown.find((span) => Number(span.hidden_children ?? 0) > 0)!;
    const part = structured(await call('get_trace', { trace_id: bigTraceId, span_id: String(collapsed.span_id), max_spans: 300 }), 'get_trace subtree');
    assert.equal((part.spans as Row[])[0].span_id, collapsed.span_id);
    assert.ok((part.spans as Row[]).every((span) => String(span.path).startsWith(String(collapsed.path))));
  });

  test('bad arguments come back as tool errors naming the argument', async () => {
    assert.match(errorText(await call('get_story', { story_id: 'xyz' })), /story_id must be 32 hexadecimal characters/);
    assert.match(errorText(await call('search_traces', { limit: 0 })), /limit must be within 1\.\.500/);
    assert.match(errorText(await call('list_story_groups', { since: 'yesterday' })), /since must be <n>s/);
    assert.match(errorText(await call('list_story_groups', { since: '8d' })), /since/, "the API's own window check");
    assert.match(errorText(await call('search_traces', { min_ms: 50, max_ms: 10 })), /min_ms must not exceed max_ms/);
    assert.match(errorText(await call('search_traces', { servce: 'x' })), /servce/);
    assert.match(errorText(await call('get_service_health', {})), /service is required/);
    assert.match(errorText(await call('get_trace', { trace_id: failing.traceId, span_id: '0123456789abcdef' })), /span_id 0123456789abcdef is not a span/);
    assert.match(errorText(await call('get_story', { story_id: '0'.repeat(32) })), /no story/);
  });
});

describe('svc mcp over stdio', () => {
  test('a round trip with the SDK client against the running API', async () => {
    const stdio = new Client({ name: 'svc-e2e-stdio', version: '1.0.0' });
    const transport = new StdioClientTransport({
      command: process.env.SVC_TEST_NODE ?? process.execPath,
      args: [join(ROOT, 'bin/svc.js'), 'mcp', '--url', svc.apiUrl],
      env: { PATH: process.env.PATH ?? '', SVC_MCP_USERNAME: USERNAME, SVC_MCP_PASSWORD: PASSWORD },
      stderr: 'pipe',
    });
    await stdio.connect(transport);
    try {
      const { tools } = await stdio.listTools();
      assert.deepEqual(tools.map((tool) => tool.name).sort(), [...TOOL_NAMES].sort());
      const story = structured(
        (await stdio.callTool({ name: 'get_story', arguments: { story_id: failing.traceId } })) as CallToolResult,
        'get_story over stdio',
      );
      assert.equal((story.root_cause as Row).span_id, failing.dbSpanId);
      assert.match(errorText((await stdio.callTool({ name: 'search_traces', arguments: { limit: 501 } })) as CallToolResult), /limit/);
    } finally {
      await stdio.close();
    }
  });
});
