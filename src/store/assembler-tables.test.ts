/**
 * The assembler's store modules against a real embedded chDB: trace summaries with their ops and
 * the baseline read over them, stories, service edges. chDB binds one data directory per process,
 * so this file opens one store once.
 */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { analyzeTrace } from '../analysis/analyze.js';
import { endpointKey } from '../analysis/baseline.js';
import { DEFAULT_THRESHOLDS, span as fixtureSpan, T0_NS, type SpanSpec } from '../analysis/fixtures.test-support.js';
import type { Story, TraceSummary } from '../analysis/types.js';
import type { SpanRow } from '../model/signals.js';
import type { Store } from '../model/store.js';
import { parseJsonExact, stringifyJson } from '../util/json.js';
import { readBaselineSamples } from './baseline-samples.js';
import { createStore } from './create-store.js';
import { migrate } from './migrate.js';
import { insertServiceEdges } from './service-edges.js';
import { insertStories } from './stories.js';
import { insertTraceSummaries, type TraceSummaryRow } from './trace-summaries.js';
import { PermanentError } from '../util/retry.js';

const dataDir = mkdtempSync(join(tmpdir(), 'svc-assembler-tables-'));
let store: Store;
const NOW_MS = Date.now();
const NOW_NS = BigInt(NOW_MS) * 1_000_000n;
/** Minutes before now as Unix ns, plus odd nanoseconds so any rounding shows. */
const minutesAgoNs = (minutes: number) => NOW_NS - BigInt(minutes * 60_000) * 1_000_000n + 123_456_789n;

before(async () => {
  store = await createStore({ clickhouse: { url: '', database: 'svc_assembler_test' }, embedded: { data_dir: dataDir } });
  await migrate(store);
});
after(async () => {
  await store?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

let traceCounter = 0;
function summaryRow(over: Partial<TraceSummary> & { ops?: [string, bigint][]; kind?: 'error' | 'slow' | '' } = {}): TraceSummaryRow {
  traceCounter += 1;
  const { ops = [['api: GET /x', 5_000_000n]], kind = '', ...summary } = over;
  return {
    summary: {
      trace_id: traceCounter.toString(16).padStart(32, 'a'),
      ts_ns: minutesAgoNs(1),
      endpoint_service: 'api',
      endpoint_name: 'GET /x',
      duration_ns: 10_000_000n,
      is_error: false,
      span_count: 3,
      services: ['api', 'db'],
      ...summary,
    },
    storyKind: kind,
    ops: ops.map(([op, duration_ns]) => ({ op, duration_ns })),
  };
}

describe('trace summaries and the baseline read', () => {
  it('stores ops and durations exactly and reads them back per endpoint, errors excluded', async () => {
    const endpoint = 'baseline exact';
    const big = 9_007_199_254_740_993n; // above 2^53
    await insertTraceSummaries(store, [
      summaryRow({
        endpoint_name: endpoint,
        duration_ns: big,
        ops: [
          ['api: a', big],
          ['db: "q" é', 7n],
        ],
      }),
      summaryRow({ endpoint_name: endpoint, is_error: true, kind: 'error' }),
    ]);
    const samples = await readBaselineSamples(store, { sinceNs: minutesAgoNs(60), nowMs: NOW_MS, perEndpoint: 100, maxRows: 10_000 });
    assert.deepEqual(samples.get(endpointKey('api', endpoint)), [
      {
        duration_ns: big,
        is_error: false,
        ops: [
          { op: 'api: a', duration_ns: big },
          { op: 'db: "q" é', duration_ns: 7n },
        ],
      },
    ]);
  });

  it('reads only the window, newest first, at most perEndpoint per endpoint and maxRows in all', async () => {
    const rows: TraceSummaryRow[] = [];
    for (let i = 0; i < 5; i++) rows.push(summaryRow({ endpoint_name: 'bounded', ts_ns: minutesAgoNs(i + 1), duration_ns: BigInt(i + 1) }));
    rows.push(summaryRow({ endpoint_name: 'bounded', ts_ns: minutesAgoNs(61), duration_ns: 999n }));
    rows.push(summaryRow({ endpoint_service: 'other', endpoint_name: 'bounded', duration_ns: 42n }));
    await insertTraceSummaries(store, rows);
    const window = { sinceNs: minutesAgoNs(60), nowMs: NOW_MS };
    const bounded = await readBaselineSamples(store, { ...window, perEndpoint: 3, maxRows: 10_000 });
    assert.deepEqual(
      bounded.get(endpointKey('api', 'bounded'))?.map((s) => s.duration_ns),
      [1n, 2n, 3n],
    );
    assert.deepEqual(
      bounded.get(endpointKey('other', 'bounded'))?.map((s) => s.duration_ns),
      [42n],
    );
    const all = await readBaselineSamples(store, { ...window, perEndpoint: 100, maxRows: 10_000 });
    assert.deepEqual(
      all.get(endpointKey('api', 'bounded'))?.map((s) => s.duration_ns),
      [1n, 2n, 3n, 4n, 5n],
      'the 61-minute-old trace is outside',
    );
    const capped = await readBaselineSamples(store, { ...window, perEndpoint: 100, maxRows: 2 });
    let total = 0;
    for (const list of capped.values()) total += list.length;
    assert.equal(total, 2);
  });

  it('a replayed trace piece counts once', async () => {
    const row = summaryRow({ endpoint_name: 'replayed' });
    await insertTraceSummaries(store, [row]);
    await insertTraceSummaries(store, [row]);
    const samples = await readBaselineSamples(store, { sinceNs: minutesAgoNs(60), nowMs: NOW_MS, perEndpoint: 100, maxRows: 10_000 });
    assert.equal(samples.get(endpointKey('api', 'replayed'))?.length, 1);
  });

  it('writes every summary column trace search reads', async () => {
    const row = summaryRow({ endpoint_name: 'columns', span_count: 4242, services: ['a', 'b'], kind: 'slow' });
    await insertTraceSummaries(store, [row]);
    const got = await store.query<Record<string, unknown>>(
      'SELECT trace_id, ts_ns, duration_ns, is_error, span_count, services, story_kind FROM trace_summaries WHERE trace_id = {id:String}',
      { id: row.summary.trace_id },
    );
    assert.deepEqual(got, [
      {
        trace_id: row.summary.trace_id,
        ts_ns: String(row.summary.ts_ns),
        duration_ns: '10000000',
        is_error: false,
        span_count: 4242,
        services: ['a', 'b'],
        story_kind: 'slow',
      },
    ]);
  });
});

/** A failing trace shifted to start a minute ago, analysed for real. */
function failingStory(traceId: string, message: string): Story {
  const shift = minutesAgoNs(1) - T0_NS;
  const specs: SpanSpec[] = [
    { id: 'r', service: 'checkout', name: 'POST /orders', kind: 'server', status: 'error', start: 0, end: 500 },
    { id: 'db', parent: 'r', service: 'payments', name: 'INSERT charge', kind: 'client', status: 'error', message, start: 240, end: 300 },
  ];
  const spans: SpanRow[] = specs.map((spec) => {
    const row = fixtureSpan(spec);
    return { ...row, traceId, startNs: row.startNs + shift, endNs: row.endNs + shift };
  });
  const result = analyzeTrace({ spans, logs: [], truncated: false, baseline: null, thresholds: DEFAULT_THRESHOLDS });
  assert.ok(result?.story);
  return result.story;
}

describe('stories', () => {
  it('stores the story JSON exactly, its columns, and a fingerprint above 2^63', async () => {
    const story = { ...failingStory('b'.repeat(32), 'deadlock'), fingerprint: '18446744073709551615' };
    await insertStories(store, [{ story, writtenAtMs: NOW_MS }]);
    const rows = await store.query<Record<string, unknown>>(
      `SELECT story_id, toString(fingerprint) AS fingerprint, toString(kind) AS kind, ts_ns, duration_ns, endpoint_service,
         endpoint_name, rc_service, rc_span_name, summary, story, written_at_ms
       FROM stories WHERE story_id = {id:String}`,
      { id: story.story_id },
    );
    assert.equal(rows.length, 1);
    const { story: json, ...columns } = rows[0];
    assert.deepEqual(columns, {
      story_id: story.story_id,
      fingerprint: '18446744073709551615',
      kind: 'error',
      ts_ns: String(story.ts_ns),
      duration_ns: String(story.duration_ns),
      endpoint_service: 'checkout',
      endpoint_name: 'POST /orders',
      rc_service: 'payments',
      rc_span_name: 'INSERT charge',
      summary: story.summary,
      written_at_ms: String(NOW_MS),
    });
    assert.equal(json, stringifyJson(story));
    assert.deepEqual((parseJsonExact(json as string) as { ts_ns: bigint }).ts_ns, story.ts_ns);
  });

  it('a replayed trace overwrites its story: the newest written_at_ms wins, also after merges', async () => {
    const first = failingStory('c'.repeat(32), 'deadlock');
    const replay = { ...first, summary: 'replayed' };
    await insertStories(store, [{ story: first, writtenAtMs: NOW_MS }]);
    await insertStories(store, [{ story: replay, writtenAtMs: NOW_MS + 1 }]);
    const newest = await store.query<{ summary: string }>('SELECT summary FROM stories WHERE story_id = {id:String} ORDER BY written_at_ms DESC LIMIT 1', {
      id: first.story_id,
    });
    assert.deepEqual(newest, [{ summary: 'replayed' }]);
    const merged = await store.query<{ summary: string }>('SELECT summary FROM stories FINAL WHERE story_id = {id:String}', { id: first.story_id });
    assert.deepEqual(merged, [{ summary: 'replayed' }]);
  });

  it('refuses a fingerprint that is not an unsigned 64-bit decimal', async () => {
    const story = failingStory('d'.repeat(32), 'x');
    await assert.rejects(insertStories(store, [{ story: { ...story, fingerprint: '1,2' }, writtenAtMs: 1 }]), PermanentError);
    await assert.rejects(insertStories(store, [{ story: { ...story, fingerprint: '18446744073709551616' }, writtenAtMs: 1 }]), PermanentError);
  });
});

describe('service edges', () => {
  it('rows of one minute and pair add up', async () => {
    const minuteS = Math.floor(NOW_MS / 60_000) * 60;
    await insertServiceEdges(store, [
      { minuteS, parent: 'edge-a', child: 'edge-b', calls: 2, errors: 1, durationNsSum: 9_007_199_254_740_993n },
      { minuteS, parent: 'edge-a', child: 'edge-c', calls: 1, errors: 0, durationNsSum: 5n },
    ]);
    await insertServiceEdges(store, [{ minuteS, parent: 'edge-a', child: 'edge-b', calls: 3, errors: 0, durationNsSum: 1n }]);
    const rows = await store.query<Record<string, unknown>>(
      `SELECT toUnixTimestamp(minute) AS minute_s, child, sum(calls) AS calls, sum(errors) AS errors, sum(duration_ns_sum) AS duration
       FROM service_edges WHERE parent = 'edge-a' GROUP BY minute_s, child ORDER BY child`,
    );
    assert.deepEqual(rows, [
      { minute_s: minuteS, child: 'edge-b', calls: '5', errors: '1', duration: '9007199254740994' },
      { minute_s: minuteS, child: 'edge-c', calls: '1', errors: '0', duration: '5' },
    ]);
  });

  it('refuses a minute that is not whole', async () => {
    await assert.rejects(insertServiceEdges(store, [{ minuteS: 61, parent: 'a', child: 'b', calls: 1, errors: 0, durationNsSum: 1n }]), PermanentError);
  });
});
