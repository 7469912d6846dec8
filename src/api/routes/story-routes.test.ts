/**
 * Story groups, stories, stories series and overview against real chDB: rows inserted straight
 * into the tables, requests through createApi with a fixed clock.
 */

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  hexId,
  insertSpans,
  insertStories,
  MINUTE_MS,
  NOW_MS,
  NOW_SECS,
  nsAt,
  openTestApi,
  spanRow,
  storyJson,
  type StoryFixture,
  type TestApi,
} from './route-test-app.test-support.js';

const FP_A = '1111';
const FP_B = '18446744073709551615';

function story(n: number, over: Partial<StoryFixture> & { tsNs: bigint }): StoryFixture {
  return {
    storyId: hexId(n),
    fingerprint: FP_A,
    kind: 'error',
    durationNs: 120_000_000n,
    endpointService: 'checkout',
    endpointName: 'POST /pay',
    rcService: 'payments',
    rcSpanName: 'charge',
    summary: `payments charge failed: boom ${n}`,
    writtenAtMs: NOW_MS,
    ...over,
  };
}

const A1 = story(0xa1, { tsNs: nsAt(-10 * MINUTE_MS) });
const A2 = story(0xa2, { tsNs: nsAt(-5 * MINUTE_MS) });
const A3_OLD = story(0xa3, { tsNs: nsAt(-2 * MINUTE_MS), summary: 'first version' });
/** A replay of A3: newer written_at_ms wins, so A3 counts once and shows this summary. */
const A3 = story(0xa3, { tsNs: nsAt(-2 * MINUTE_MS), summary: 'replayed version', writtenAtMs: NOW_MS + 1 });
const A_2H = story(0xa4, { tsNs: nsAt(-120 * MINUTE_MS) });
const A_FUTURE = story(0xa5, { tsNs: nsAt(30_000) });
const B1 = story(0xb1, {
  fingerprint: FP_B,
  kind: 'slow',
  tsNs: nsAt(-20 * MINUTE_MS),
  durationNs: 2_500_000_000n,
  endpointService: 'search',
  endpointName: 'GET /q',
  rcService: 'db',
  rcSpanName: 'SELECT',
  summary: 'GET /q took 2.5s against a p99 of 300ms; most time in db SELECT',
});
/** Past the stories lifetime (7 days before now): never served. */
const EXPIRED = story(0xee, { tsNs: nsAt(-8 * 24 * 60 * MINUTE_MS) });

const minuteOf = (s: StoryFixture): number => Math.floor(Number(s.tsNs / 1_000_000_000n) / 60) * 60;

let t: TestApi;
before(async () => {
  t = await openTestApi('story-routes');
  await insertStories(t.store, [A1, A2, A3_OLD, A_2H, A_FUTURE, B1, EXPIRED]);
  await insertStories(t.store, [A3]);
});
after(async () => t?.close());

async function expect400(url: string, message: string): Promise<void> {
  const response = await t.get(url);
  assert.deepEqual(response, { status: 400, body: { error: message } }, url);
}

describe('GET /api/v1/story-groups', () => {
  it('groups the last hour by fingerprint, most stories first, replays once, newest sample and summary', async () => {
    const { status, body } = await t.get('/api/v1/story-groups');
    assert.equal(status, 200);
    assert.deepEqual(body, [
      {
        fingerprint: FP_A,
        kind: 'error',
        summary: 'replayed version',
        rc_service: 'payments',
        rc_span_name: 'charge',
        endpoint_service: 'checkout',
        endpoint_name: 'POST /pay',
        stories: 3,
        first_seen_ns: A1.tsNs,
        last_seen_ns: A3.tsNs,
        sample_story_id: A3.storyId,
        bucket_secs: 60,
        buckets: [
          [minuteOf(A1), 1],
          [minuteOf(A2), 1],
          [minuteOf(A3), 1],
        ],
      },
      {
        fingerprint: FP_B,
        kind: 'slow',
        summary: B1.summary,
        rc_service: 'db',
        rc_span_name: 'SELECT',
        endpoint_service: 'search',
        endpoint_name: 'GET /q',
        stories: 1,
        first_seen_ns: B1.tsNs,
        last_seen_ns: B1.tsNs,
        sample_story_id: B1.storyId,
        bucket_secs: 60,
        buckets: [[minuteOf(B1), 1]],
      },
    ]);
    assert.equal(typeof body[0].first_seen_ns, 'bigint', 'ns values above 2^53 stay exact');
  });

  it('filters by kind and by root-cause service', async () => {
    assert.deepEqual(
      (await t.get('/api/v1/story-groups?kind=slow')).body.map((g: { fingerprint: string }) => g.fingerprint),
      [FP_B],
    );
    assert.deepEqual(
      (await t.get('/api/v1/story-groups?kind=error')).body.map((g: { fingerprint: string }) => g.fingerprint),
      [FP_A],
    );
    assert.deepEqual(
      (await t.get('/api/v1/story-groups?service=db')).body.map((g: { fingerprint: string }) => g.fingerprint),
      [FP_B],
    );
    assert.deepEqual((await t.get('/api/v1/story-groups?service=checkout')).body, [], 'service matches the root cause, not the endpoint');
  });

  it('counts 24 h in 720 s buckets whose sum is the total', async () => {
    const { body } = await t.get('/api/v1/story-groups?since=24h');
    assert.equal(body[0].stories, 4);
    assert.equal(body[0].bucket_secs, 720);
    assert.ok(body[0].buckets.every(([start]: [number, number]) => start % 720 === 0));
    assert.equal(
      body[0].buckets.reduce((sum: number, [, n]: [number, number]) => sum + n, 0),
      4,
    );
    assert.equal(body[0].first_seen_ns, A_2H.tsNs);
  });

  it('honours until as Unix seconds and as RFC 3339 with an offset', async () => {
    const until = NOW_SECS - 90 * 60;
    const unix = await t.get(`/api/v1/story-groups?until=${until}`);
    assert.deepEqual(
      unix.body.map((g: { stories: number; sample_story_id: string }) => [g.stories, g.sample_story_id]),
      [[1, A_2H.storyId]],
    );
    const local = new Date((until + 2 * 3600) * 1000).toISOString().slice(0, 19);
    const rfc = await t.get(`/api/v1/story-groups?until=${encodeURIComponent(`${local}.5+02:00`)}`);
    assert.deepEqual(rfc.body, unix.body);
  });

  it('includes a story 60 s ahead of now only once the window reaches it', async () => {
    const { body } = await t.get(`/api/v1/story-groups?until=${NOW_SECS + 60}`);
    assert.equal(body[0].stories, 4);
    assert.equal(body[0].sample_story_id, A_FUTURE.storyId);
  });

  it('answers 400 with the contract messages', async () => {
    await expect400('/api/v1/story-groups?kind=fatal', 'invalid kind (expected error or slow)');
    await expect400('/api/v1/story-groups?since=8d', 'since must be within 1s..7d');
    await expect400('/api/v1/story-groups?since=0s', 'since must be within 1s..7d');
    await expect400('/api/v1/story-groups?since=1w', 'since must be <n>s, <n>m, <n>h or <n>d');
    await expect400(`/api/v1/story-groups?until=${NOW_SECS + 61}`, 'until must be at most 60s in the future');
    await expect400(`/api/v1/story-groups?since=7d&until=${NOW_SECS - 1}`, 'window start must be within the last 7 days');
    await expect400('/api/v1/story-groups?until=yesterday', 'until must be rfc 3339 or unix seconds');
    await expect400(`/api/v1/story-groups?service=${'s'.repeat(201)}`, 'service must be at most 200 characters');
    await expect400('/api/v1/story-groups?kind=error&kind=slow', 'kind must be given once');
    assert.equal((await t.get(`/api/v1/story-groups?service=${'s'.repeat(200)}`)).status, 200);
  });
});

describe('GET /api/v1/story-groups/{fingerprint}', () => {
  it('returns the group over 24 h and its examples newest first, all inside the window', async () => {
    const { status, body } = await t.get(`/api/v1/story-groups/${FP_A}`);
    assert.equal(status, 200);
    assert.equal(body.group.fingerprint, FP_A);
    assert.equal(body.group.stories, 4);
    assert.equal(body.group.bucket_secs, 720);
    assert.deepEqual(
      body.examples,
      [A3, A2, A1, A_2H].map((s) => ({ story_id: s.storyId, ts_ns: s.tsNs, trace_id: s.storyId, duration_ns: Number(s.durationNs), summary: s.summary })),
    );
  });

  it('reads the largest u64 fingerprint exactly', async () => {
    const { body } = await t.get(`/api/v1/story-groups/${FP_B}?since=1h`);
    assert.equal(body.group.fingerprint, FP_B);
    assert.equal(body.examples.length, 1);
  });

  it('answers 404 without a story in the window and 400 for a non-u64 fingerprint', async () => {
    assert.deepEqual(await t.get(`/api/v1/story-groups/${FP_A}?since=1m`), { status: 404, body: { error: 'not found' } });
    assert.deepEqual(await t.get('/api/v1/story-groups/424242'), { status: 404, body: { error: 'not found' } });
    await expect400('/api/v1/story-groups/abc', 'fingerprint must be a decimal u64');
    await expect400('/api/v1/story-groups/-1', 'fingerprint must be a decimal u64');
    await expect400('/api/v1/story-groups/18446744073709551616', 'fingerprint must be a decimal u64');
    await expect400(`/api/v1/story-groups/${FP_A}?since=9d`, 'since must be within 1s..7d');
  });
});

describe('GET /api/v1/stories/{story_id}', () => {
  it('returns the newest stored story JSON byte for byte', async () => {
    const response = await t.api.app.inject({ method: 'GET', url: `/api/v1/stories/${A3.storyId.toUpperCase()}` });
    assert.equal(response.statusCode, 200);
    assert.match(String(response.headers['content-type']), /^application\/json/);
    assert.equal(response.body, storyJson(A3));
  });

  it('answers 404 when absent or past the lifetime, 400 for a bad id', async () => {
    assert.deepEqual(await t.get(`/api/v1/stories/${hexId(0x1234)}`), { status: 404, body: { error: 'not found' } });
    assert.deepEqual(await t.get(`/api/v1/stories/${EXPIRED.storyId}`), { status: 404, body: { error: 'not found' } });
    await expect400('/api/v1/stories/xyz', 'id must be 32 hexadecimal characters');
    await expect400(`/api/v1/stories/${hexId(1)}0`, 'id must be 32 hexadecimal characters');
  });
});

describe('GET /api/v1/stories/series', () => {
  it('counts each kind in every grid bucket of the window', async () => {
    const { status, body } = await t.get('/api/v1/stories/series');
    assert.equal(status, 200);
    assert.equal(body.bucket_secs, 60);
    assert.equal(body.error.length, 61, 'partial first and last minute');
    assert.equal(body.error[0][0], Math.floor((NOW_MS - 3_600_000) / 60_000) * 60);
    assert.equal(body.error[60][0], Math.floor(NOW_MS / 60_000) * 60);
    const total = (series: [number, number][]) => series.reduce((sum, [, n]) => sum + n, 0);
    assert.equal(total(body.error), 3);
    assert.equal(total(body.slow), 1);
    assert.deepEqual(
      body.slow.find(([, n]: [number, number]) => n > 0),
      [minuteOf(B1), 1],
    );
  });

  it('filters by kind and service', async () => {
    const { body } = await t.get('/api/v1/stories/series?kind=slow');
    assert.ok(body.error.every(([, n]: [number, number]) => n === 0));
    const byService = await t.get('/api/v1/stories/series?service=payments&since=24h');
    assert.equal(
      byService.body.error.reduce((sum: number, [, n]: [number, number]) => sum + n, 0),
      4,
    );
    assert.equal(
      byService.body.slow.reduce((sum: number, [, n]: [number, number]) => sum + n, 0),
      0,
    );
  });

  it('answers 400 with the contract messages', async () => {
    await expect400('/api/v1/stories/series?kind=new', 'invalid kind (expected error or slow)');
    await expect400(`/api/v1/stories/series?until=${NOW_SECS + 3600}`, 'until must be at most 60s in the future');
  });
});

describe('GET /api/v1/overview', () => {
  before(async () => {
    const spans = [-50, -30, -10, -1].map((minutes, i) => spanRow(hexId(0x5000 + i), 1, { startNs: nsAt(minutes * MINUTE_MS), durationMs: 5 }));
    spans.push(spanRow(hexId(0x5100), 1, { startNs: nsAt(-90 * MINUTE_MS), durationMs: 5 }));
    await insertSpans(t.store, spans);
    const alert = (id: string, startedMin: number, lastMin: number, updatedAtMs: number) => [
      id,
      'spike',
      42n,
      'payments',
      'payment failed <*>',
      nsAt(startedMin * MINUTE_MS),
      nsAt(lastMin * MINUTE_MS),
      12,
      12,
      1.5,
      null,
      null,
      [],
      true,
      updatedAtMs,
    ];
    await t.store.insert(
      'log_alerts',
      [
        'alert_id',
        'kind',
        'template_id',
        'service',
        'template',
        'started_at_ns',
        'last_at_ns',
        'window_count',
        'peak_count',
        'baseline_per_window',
        'baseline_day',
        'baseline_week',
        'example_trace_ids',
        'published',
        'updated_at_ms',
      ],
      [
        alert('00000000000000a1', -30, -5, 1), // active: last seen 5 minutes before the end
        alert('00000000000000a2', -60, -20, 1), // not active
        alert('00000000000000a3', -30, -1, 1), // superseded by the next row, which ended 40 minutes ago
        alert('00000000000000a3', -50, -40, 2),
      ],
    );
    const sample = (instance: string, offsetMs: number, value: number) => [
      NOW_MS + offsetMs,
      'svc-logminer',
      instance,
      'svc_logminer_data_lag_seconds',
      {},
      value,
    ];
    await t.store.insert(
      'metric_samples',
      ['ts_ms', 'job', 'instance', 'metric', 'labels', 'value'],
      [
        sample('a:9100', -200_000, 5),
        sample('a:9100', -100_000, 3), // replica a's newest
        sample('b:9100', -50_000, 2.5),
        sample('c:9100', -400_000, 99), // older than 300 s
      ],
    );
  });

  it('sums stories and spans per bucket, counts active alerts and takes the largest newest data lag', async () => {
    const { status, body } = await t.get('/api/v1/overview');
    assert.equal(status, 200);
    assert.equal(body.bucket_secs, 60);
    assert.equal(body.error_stories, 3);
    assert.equal(body.slow_stories, 1);
    assert.equal(body.active_alerts, 1);
    assert.equal(body.data_lag_secs, 3);
    assert.equal(body.spans_per_sec, 4 / 3600);
    assert.equal(body.stories.bucket_secs, 60);
    assert.equal(body.stories.error.length, 61);
    assert.equal(body.spans.length, 61);
    // Per-second rates times the seconds each bucket covers give back the span count.
    const covered = (start: number) => Math.min(NOW_MS / 1000, start + 60) - Math.max(NOW_MS / 1000 - 3600, start);
    const spans = body.spans.reduce((sum: number, [start, rate]: [number, number]) => sum + rate * covered(start), 0);
    assert.ok(Math.abs(spans - 4) < 1e-9, String(spans));
  });

  it('evaluates alerts and data lag at the window end', async () => {
    const { body } = await t.get(`/api/v1/overview?until=${NOW_SECS - 25 * 60}`);
    assert.equal(body.active_alerts, 2, 'a1 and a2 were both seen within 10 minutes of that end');
    assert.equal(body.data_lag_secs, 0);
    assert.equal(body.error_stories, 0);
    assert.equal(body.slow_stories, 0);
    assert.equal(body.spans_per_sec, 2 / 3600);
  });

  it('answers 400 with the contract messages', async () => {
    await expect400('/api/v1/overview?since=1y', 'since must be <n>s, <n>m, <n>h or <n>d');
    await expect400('/api/v1/overview?since=7d&until=2000-01-01T00:00:00Z', 'window start must be within the last 7 days');
  });
});
