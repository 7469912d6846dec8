/**
 * whats_wrong's shaping over API answers at their declared limits (each built through its route's
 * declaration, so the fixture cannot drift from what the API sends): the incident leads, the
 * incident window follows the tool's window, and the answer stays within the byte bound.
 * The real round trip through a running svc is in src/e2e/mcp.e2e.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { z } from 'zod';
import { incidents } from '../../api/schemas/incidents.js';
import { logAlert } from '../../api/schemas/logs.js';
import { overview, storyGroup } from '../../api/schemas/stories.js';
import type { ApiCaller, QueryValue } from '../api-caller.js';
import { MAX_ANSWER_BYTES } from '../bound.js';
import { whatsWrongTool } from './whats-wrong.js';

const LONG = 'x'.repeat(2_000);
const NS = 1_764_057_600_123_456_789n;

function evidence(index: number): z.input<typeof incidents>['suspects'][number]['evidence'][number] {
  const kinds = ['story_group', 'self_time', 'log_template', 'edge_latency'] as const;
  const kind = kinds[index % kinds.length] ?? 'self_time';
  return {
    kind,
    summary: `evidence ${index} ${LONG}`,
    score: 10,
    service: 'payments',
    operation: 'charge',
    caller: null,
    callee: null,
    fingerprint: kind === 'story_group' ? `1844674407370955161${index % 10}` : null,
    template_id: kind === 'log_template' ? `${index}` : null,
    before: 12,
    after: 41,
    unit: 'ms',
  };
}

/** The largest answers the routes declare: 10 suspects of long evidence, 100 groups, 200 alerts. */
const answers: Record<string, unknown> = {
  '/api/v1/incidents': incidents.parse({
    window_from_ns: NS,
    window_to_ns: NS + 900_000_000_000n,
    baseline_from_ns: NS - 3_600_000_000_000n,
    baseline_to_ns: NS,
    summary: `Likeliest cause: payments (charge). Own time per call 12 ms → 41 ms ${LONG}`,
    suspects: Array.from({ length: 10 }, (_, index) => ({
      rank: index + 1,
      service: index === 0 ? 'payments' : `service-${index}`,
      operation: index === 0 ? 'charge' : null,
      edge: index === 1 ? { caller: 'cart', callee: 'service-1' } : null,
      score: 90 - index * 7.25,
      summary: `suspect ${index} ${LONG}`,
      evidence: Array.from({ length: 12 }, (_, at) => evidence(at)),
    })),
    groups: Array.from({ length: 100 }, (_, index) => ({
      fingerprint: `${1000 + index}`,
      kind: 'error',
      summary: `group ${index} ${LONG}`,
      rc_service: index < 90 ? 'payments' : 'search',
      rc_span_name: 'db query',
      endpoint_service: 'frontend',
      endpoint_name: 'GET /checkout',
      stories: 100 - index,
      baseline_stories: index < 7 ? 0 : 90,
      trend: index < 7 ? (index < 3 ? 'new' : 'rising') : index < 90 ? 'chronic' : 'fading',
      sample_story_id: 'ab'.repeat(16),
    })),
  }),
  '/api/v1/overview': overview.parse({
    bucket_secs: 60,
    error_stories: 5000,
    slow_stories: 40,
    active_alerts: 200,
    spans_per_sec: 1234.5,
    data_lag_secs: 1.5,
    stories: { bucket_secs: 60, error: [], slow: [] },
    spans: [],
  }),
  '/api/v1/story-groups': Array.from({ length: 100 }, (_, index) =>
    storyGroup.parse({
      fingerprint: `${2000 + index}`,
      kind: 'error',
      summary: `story group ${index} ${LONG}`,
      rc_service: 'payments',
      rc_span_name: 'db query',
      endpoint_service: 'frontend',
      endpoint_name: 'GET /checkout',
      stories: 100 - index,
      first_seen_ns: NS,
      last_seen_ns: NS,
      sample_story_id: 'cd'.repeat(16),
      bucket_secs: 60,
      buckets: Array.from({ length: 120 }, (_, at) => [1_764_057_600 + at * 60, 3]),
    }),
  ),
  '/api/v1/log-alerts': Array.from({ length: 200 }, (_, index) =>
    logAlert.parse({
      alert_id: `${index}`,
      kind: 'spike',
      template_id: `${index}`,
      service: 'payments',
      template: `alert ${index} ${LONG}`,
      started_at_ns: NS,
      last_at_ns: NS,
      window_count: 50,
      peak_count: 60,
      baseline_per_window: 2,
      active: true,
      example_traces: [{ trace_id: 'ef'.repeat(16), story_id: null }],
    }),
  ),
};

/** An API caller answering from the fixture and recording what each path was asked. */
function fixtureCaller(): { caller: ApiCaller; asked: Map<string, Record<string, QueryValue>> } {
  const asked = new Map<string, Record<string, QueryValue>>();
  const caller: ApiCaller = (path, query = {}) => {
    asked.set(path, query);
    return Promise.resolve({ status: 200, body: answers[path] });
  };
  return { caller, asked };
}

function textOf(result: Awaited<ReturnType<typeof whatsWrongTool.run>>): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

test('the incident leads: its window, suspects with their three strongest pieces of evidence, new and rising groups', async () => {
  const { caller } = fixtureCaller();
  const result = await whatsWrongTool.run(caller, {});
  const answer = result.structuredContent as Record<string, unknown>;
  assert.deepEqual(Object.keys(answer).slice(0, 7), [
    'incident',
    'suspects_total',
    'suspects',
    'new_or_rising_groups_total',
    'new_or_rising_groups',
    'chronic_groups_total',
    'fading_groups_total',
  ]);
  const incident = answer.incident as Record<string, unknown>;
  assert.equal(incident.since, '15m');
  assert.equal(incident.window_from_ns, NS.toString(), '*_ns values are exact decimal strings');
  const suspects = answer.suspects as {
    rank: number;
    service: string;
    operation: string | null;
    evidence: { kind: string; summary: string; fingerprint?: string; template_id?: string }[];
  }[];
  assert.equal(answer.suspects_total, 10);
  assert.deepEqual(
    suspects.map((suspect) => suspect.rank),
    [1, 2, 3, 4, 5],
  );
  assert.equal(suspects[0]?.service, 'payments');
  assert.deepEqual(
    suspects[0]?.evidence.map((item) => [item.kind, item.fingerprint, item.template_id]),
    [
      ['story_group', '18446744073709551610', undefined],
      ['self_time', undefined, undefined],
      ['log_template', undefined, '2'],
    ],
  );
  assert.ok(
    suspects[0]?.evidence.every((item) => item.summary.length <= 200),
    'evidence sentences are clipped',
  );
  assert.equal(answer.new_or_rising_groups_total, 7);
  assert.deepEqual(
    (answer.new_or_rising_groups as { trend: string }[]).map((group) => group.trend),
    ['new', 'new', 'new', 'rising', 'rising'],
  );
  assert.equal(answer.chronic_groups_total, 83);
  assert.equal(answer.fading_groups_total, 10);

  const lines = textOf(result).split('\n');
  assert.match(lines[0] ?? '', /^Incident, last 15m against the hour before\. Likeliest cause: payments \(charge\)\. Own time/);
  assert.match(lines[1] ?? '', /^Likeliest cause: payments charge \(score 90\), because:$/);
  assert.match(lines[2] ?? '', /^ {2}- story_group: evidence 0 x/);
  assert.match(lines[5] ?? '', /^Also suspected: #2 cart → service-1 \(score 82\.8\), #3 service-2/);
});

test('every list at its limit still fits the answer bound, the incident kept whole', async () => {
  const { caller } = fixtureCaller();
  const result = await whatsWrongTool.run(caller, {});
  const bytes = Buffer.byteLength(JSON.stringify(result.structuredContent)) + Buffer.byteLength(textOf(result));
  assert.ok(bytes <= MAX_ANSWER_BYTES, `${bytes} bytes is over the bound`);
  const answer = result.structuredContent as Record<string, unknown>;
  assert.equal(answer.shrunk, undefined, 'fits without the last-resort shrinking');
  assert.equal((answer.suspects as unknown[]).length, 5);
  assert.equal((answer.truncated as { field: string }).field, 'active_log_alerts');
});

test("the incident window ends with the tool's window: as asked under an hour, else its last 15 minutes; service goes along", async () => {
  const cases: [Record<string, string>, string][] = [
    [{ since: '5m' }, '5m'],
    [{ since: '30m' }, '30m'],
    [{ since: '1h' }, '15m'],
    [{ since: '24h' }, '15m'],
    [{}, '15m'],
  ];
  for (const [args, expected] of cases) {
    const { caller, asked } = fixtureCaller();
    await whatsWrongTool.run(caller, { ...args, until: '2026-11-25T08:00:00Z', service: 'payments' });
    assert.deepEqual(asked.get('/api/v1/incidents'), { since: expected, until: '2026-11-25T08:00:00Z', service: 'payments' }, JSON.stringify(args));
    assert.deepEqual(asked.get('/api/v1/overview'), { since: args.since, until: '2026-11-25T08:00:00Z' }, 'the rest keeps the whole window');
  }
});

test('service narrows the groups to their root cause, as error_groups are', async () => {
  const { caller } = fixtureCaller();
  const answer = (await whatsWrongTool.run(caller, { service: 'search' })).structuredContent as Record<string, unknown>;
  assert.deepEqual([answer.new_or_rising_groups_total, answer.chronic_groups_total, answer.fading_groups_total], [0, 0, 10]);
  const everything = (await whatsWrongTool.run(caller, {})).structuredContent as Record<string, unknown>;
  assert.deepEqual([everything.new_or_rising_groups_total, everything.chronic_groups_total, everything.fading_groups_total], [7, 83, 10]);
});
