import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CallStat, OpStat } from '../call-stats.js';
import { analyzeIncident } from './rank.js';
import type { GroupCounts, IncidentInputs, TemplateCounts } from './types.js';

const WINDOW_FROM_S = 1_800_000_000 - (1_800_000_000 % 60);
const BASELINE_FROM_S = WINDOW_FROM_S - 3600;
const WINDOW_TO_S = WINDOW_FROM_S + 15 * 60;

/** A small seeded generator, so every run sees the same noise. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface OpSpec {
  service: string;
  operation: string;
  callsPerMin: number;
  selfMs: number;
  originErrorShare?: number;
  /** Changes inside the window. */
  windowSelfFactor?: number;
  windowOriginErrorShare?: number;
}

interface CallSpec {
  caller: string;
  callee: string;
  operation: string;
  callsPerMin: number;
  wireMs: number;
  serverMs: number;
  served?: boolean;
  windowAddedWireMs?: number;
  windowUnanswered?: boolean;
  /** The callee's own answer time inside the window, as a factor of `serverMs`. */
  windowServerFactor?: number;
}

function build(opSpecs: OpSpec[], callSpecs: CallSpec[], seed = 1): { ops: OpStat[]; calls: CallStat[] } {
  const random = rng(seed);
  const jitter = () => 0.85 + 0.3 * random();
  const ops: OpStat[] = [];
  const calls: CallStat[] = [];
  for (let minuteS = BASELINE_FROM_S; minuteS < WINDOW_TO_S; minuteS += 60) {
    const inWindow = minuteS >= WINDOW_FROM_S;
    for (const o of opSpecs) {
      const n = Math.max(1, Math.round(o.callsPerMin * jitter()));
      const share = inWindow ? (o.windowOriginErrorShare ?? o.originErrorShare ?? 0) : (o.originErrorShare ?? 0);
      let errors = 0;
      for (let i = 0; i < n; i++) if (random() < share) errors++;
      const factor = inWindow ? (o.windowSelfFactor ?? 1) : 1;
      const selfNs = Math.round(n * o.selfMs * 1e6 * factor * jitter());
      ops.push({
        minuteS,
        service: o.service,
        operation: o.operation,
        calls: n,
        errors,
        originErrors: errors,
        selfNsSum: BigInt(selfNs),
        durationNsSum: BigInt(selfNs),
        selfNsMax: 0n,
      });
    }
    for (const c of callSpecs) {
      const n = Math.max(1, Math.round(c.callsPerMin * jitter()));
      const unanswered = inWindow && c.windowUnanswered === true;
      const served = c.served !== false && !unanswered;
      const wire = (c.wireMs + (inWindow ? (c.windowAddedWireMs ?? 0) : 0)) * jitter();
      calls.push({
        minuteS,
        caller: c.caller,
        callee: unanswered ? `${c.callee}:8080` : c.callee,
        operation: c.operation,
        peer: `${c.callee}:8080`,
        calls: n,
        errors: unanswered ? n : 0,
        originErrors: unanswered ? n : 0,
        clientNsSum: BigInt(Math.round(n * (wire + (served ? c.serverMs : 0)) * 1e6)),
        wireNsSum: BigInt(Math.round(n * (unanswered ? 1 : wire) * 1e6)),
        wireNsMax: 0n,
        servedCalls: served ? n : 0,
        serverNsSum: BigInt(served ? Math.round(n * c.serverMs * (inWindow ? (c.windowServerFactor ?? 1) : 1) * 1e6 * jitter()) : 0),
      });
    }
  }
  return { ops, calls };
}

const SHOP_OPS: OpSpec[] = [
  { service: 'gateway', operation: 'GET /*', callsPerMin: 600, selfMs: 2 },
  { service: 'checkout', operation: 'PlaceOrder', callsPerMin: 60, selfMs: 8 },
  { service: 'pricing', operation: 'GetPrice', callsPerMin: 400, selfMs: 5 },
  { service: 'cart', operation: 'GetCart', callsPerMin: 300, selfMs: 3 },
  { service: 'recommendation', operation: 'List', callsPerMin: 200, selfMs: 12, originErrorShare: 0.03 },
];
const SHOP_CALLS: CallSpec[] = [
  { caller: 'gateway', callee: 'checkout', operation: 'POST /checkout', callsPerMin: 60, wireMs: 1, serverMs: 30 },
  { caller: 'gateway', callee: 'pricing', operation: 'GET /price', callsPerMin: 300, wireMs: 1, serverMs: 5 },
  { caller: 'checkout', callee: 'pricing', operation: 'GET /price', callsPerMin: 100, wireMs: 1, serverMs: 5 },
  { caller: 'gateway', callee: 'cart', operation: 'GET /cart', callsPerMin: 300, wireMs: 1, serverMs: 3 },
  { caller: 'gateway', callee: 'recommendation', operation: 'GET /recs', callsPerMin: 200, wireMs: 1, serverMs: 12 },
  { caller: 'cart', callee: 'cart-cache', operation: 'GET', callsPerMin: 300, wireMs: 0.8, serverMs: 0, served: false },
];

function inputs(parts: Partial<IncidentInputs>): IncidentInputs {
  return { baselineFromS: BASELINE_FROM_S, windowFromS: WINDOW_FROM_S, windowToS: WINDOW_TO_S, ops: [], calls: [], groups: [], templates: [], ...parts };
}

function withChange(opChanges: Partial<Record<string, Partial<OpSpec>>>, callChanges: Partial<Record<string, Partial<CallSpec>>> = {}) {
  return build(
    SHOP_OPS.map((o) => ({ ...o, ...opChanges[o.service] })),
    SHOP_CALLS.map((c) => ({ ...c, ...callChanges[`${c.caller}>${c.callee}`] })),
  );
}

test('steady traffic with a chronic error: nothing to suspect', () => {
  const report = analyzeIncident(inputs(build(SHOP_OPS, SHOP_CALLS)));
  assert.deepEqual(report.suspects, []);
  assert.equal(report.summary, 'Nothing changed beyond the usual in this window.');
});

test('a service whose own time grows on every call is the suspect, not its callers that wait for it', () => {
  const report = analyzeIncident(inputs(withChange({ pricing: { windowSelfFactor: 1.6 } })));
  assert.equal(report.suspects[0]?.service, 'pricing');
  assert.equal(report.suspects[0]?.evidence[0]?.kind, 'self_time');
  assert.match(report.summary, /^Likeliest cause: pricing \(GetPrice\)\. Pricing's own time per call is 1\.\dx its usual/);
});

test('wire time into a callee whose own answer time is flat names the callee, through every caller', () => {
  const report = analyzeIncident(inputs(withChange({}, { 'gateway>pricing': { windowAddedWireMs: 150 }, 'checkout>pricing': { windowAddedWireMs: 150 } })));
  const top = report.suspects[0];
  assert.equal(top?.service, 'pricing');
  assert.deepEqual(new Set(top?.evidence.filter((e) => e.kind === 'edge_latency').map((e) => e.caller)), new Set(['gateway', 'checkout']));
  assert.match(top?.evidence[0]?.summary ?? '', /while pricing's own answer time is flat .*the network to pricing or its ingress/);
  assert.ok(!report.suspects.some((s) => s.service === 'gateway' || s.service === 'checkout'), 'callers are not suspects');
});

test("the callee's own answer time is called flat unless its change would count as a slowdown by itself", () => {
  // A sub-millisecond answer 1.2x longer adds less than a user could notice: flat, beside 150 ms on the wire.
  const cheap = SHOP_CALLS.map((c) => (c.callee === 'pricing' ? { ...c, serverMs: 0.8 } : c));
  const wire = { windowAddedWireMs: 150 };
  const slightly = analyzeIncident(
    inputs(
      build(
        SHOP_OPS,
        cheap.map((c) => (c.callee === 'pricing' ? { ...c, ...wire, windowServerFactor: 1.2 } : c)),
      ),
    ),
  );
  const flat = slightly.suspects[0]?.evidence.find((e) => e.kind === 'edge_latency')?.summary ?? '';
  assert.match(flat, /while pricing's own answer time is flat \(0\.\d ms → 0\.\d ms\)/);
  // Twice a 5 ms answer is a slowdown of its own, and the sentence says so.
  const doubled = analyzeIncident(
    inputs(withChange({}, { 'gateway>pricing': { ...wire, windowServerFactor: 2 }, 'checkout>pricing': { ...wire, windowServerFactor: 2 } })),
  );
  const grew = doubled.suspects.flatMap((s) => s.evidence).find((e) => e.kind === 'edge_latency' && e.callee === 'pricing')?.summary ?? '';
  assert.match(grew, /while pricing's own answer time grew (1\.9|2\.0|2\.1)x \(5(\.\d)? ms → (9|10)(\.\d)? ms\)/);
});

test('a peer without spans getting slow is named as its callers name it', () => {
  const report = analyzeIncident(inputs(withChange({}, { 'cart>cart-cache': { windowAddedWireMs: 40 } })));
  assert.equal(report.suspects[0]?.service, 'cart-cache');
  assert.deepEqual(report.suspects[0]?.edge, { caller: 'cart', callee: 'cart-cache' });
  assert.match(report.suspects[0]?.evidence[0]?.summary ?? '', /sends no spans of its own/);
});

test('a service slow in itself is the suspect, not the database whose calls it makes slower while it is starved', () => {
  const report = analyzeIncident(inputs(withChange({ cart: { windowSelfFactor: 2.5 } }, { 'cart>cart-cache': { windowAddedWireMs: 1.5 } })));
  assert.equal(report.suspects[0]?.service, 'cart');
  assert.ok(!report.suspects.some((s) => s.service === 'cart-cache'));
  assert.match(report.suspects[0]?.evidence.find((e) => e.kind === 'edge_latency')?.summary ?? '', /as every call cart makes while it is slow itself/);
});

test('a callee that stops answering is named by the service its address belonged to, and its callers echo it in their logs', () => {
  const changed = withChange(
    { pricing: { callsPerMin: 0.0001 } },
    { 'gateway>pricing': { windowUnanswered: true }, 'checkout>pricing': { windowUnanswered: true } },
  );
  const callerLogs: TemplateCounts[] = [
    { service: 'checkout', templateId: '11', template: 'failed to call pricing: <*>', maxSeverity: 17, baselineHits: 0, windowHits: 1400, baselineSquares: 0 },
    { service: 'gateway', templateId: '12', template: 'upstream error <*>', maxSeverity: 17, baselineHits: 0, windowHits: 4000, baselineSquares: 0 },
  ];
  const report = analyzeIncident(inputs({ ...changed, templates: callerLogs }));
  assert.equal(report.suspects[0]?.service, 'pricing');
  const kinds = new Set(report.suspects[0]?.evidence.map((e) => e.kind));
  assert.ok(kinds.has('traffic') && kinds.has('error_rate'), `kinds: ${[...kinds].join(', ')}`);
});

test('chronic story groups are marked and not suspected; a new group is, on the service the failure starts in', () => {
  const chronic: GroupCounts = {
    fingerprint: '1',
    kind: 'error',
    summary: 'recommendation List failed: no instances available',
    rc_service: 'recommendation',
    rc_span_name: 'List',
    rc_span_kind: 'server',
    endpoint_service: 'gateway',
    endpoint_name: 'GET /*',
    sample_story_id: 'a'.repeat(32),
    windowStories: 90,
    baselineStories: 360,
  };
  const fresh: GroupCounts = {
    ...chronic,
    fingerprint: '2',
    summary: 'pricing GetPrice failed: invalid return value',
    rc_service: 'pricing',
    rc_span_name: 'GetPrice',
    sample_story_id: 'b'.repeat(32),
    windowStories: 40,
    baselineStories: 0,
  };
  const report = analyzeIncident(inputs({ ...withChange({ pricing: { windowOriginErrorShare: 0.1 } }), groups: [chronic, fresh] }));
  assert.deepEqual(
    report.groups.map((g) => [g.fingerprint, g.trend]),
    [
      ['2', 'new'],
      ['1', 'chronic'],
    ],
  );
  assert.equal(report.suspects[0]?.service, 'pricing');
  assert.ok(!report.suspects.some((s) => s.service === 'recommendation'));
});

test('a caught exception that only changes a service INFO lines makes it the suspect', () => {
  const templates: TemplateCounts[] = [
    {
      service: 'pricing',
      templateId: '21',
      template: 'Fallback: no price for product <*>, using cached value',
      maxSeverity: 9,
      baselineHits: 0,
      windowHits: 2500,
      baselineSquares: 0,
    },
    {
      service: 'pricing',
      templateId: '22',
      template: 'Computed price for product <*>: <*>',
      maxSeverity: 9,
      baselineHits: 24000,
      windowHits: 2500,
      baselineSquares: 60 * 400 * 400,
    },
    {
      service: 'cart',
      templateId: '23',
      template: 'cart <*> loaded',
      maxSeverity: 9,
      baselineHits: 18000,
      windowHits: 4600,
      baselineSquares: 60 * 300 * 300 + 60 * 900,
    },
  ];
  const report = analyzeIncident(inputs({ ...build(SHOP_OPS, SHOP_CALLS), templates }));
  assert.equal(report.suspects[0]?.service, 'pricing');
  assert.equal(report.suspects.length, 1);
  assert.deepEqual(new Set(report.suspects[0]?.evidence.map((e) => e.template_id)), new Set(['21', '22']));
});

test('the service filter keeps what the service calls, directly or not', () => {
  const report = analyzeIncident(inputs({ ...withChange({ pricing: { windowSelfFactor: 2 }, cart: { windowSelfFactor: 2 } }), service: 'checkout' }));
  assert.deepEqual(
    report.suspects.map((s) => s.service),
    ['pricing'],
  );
});
