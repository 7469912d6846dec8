/** GET /api/v1/pipeline/series over real chDB (one engine per test file) through createApi. */

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Registry } from 'prom-client';
import type { Bus } from '../../model/bus.js';
import { openTestBus } from '../../testing/test-bus.js';
import { createTraceRepo } from '../trace-repo.js';
import type { Store } from '../../model/store.js';
import { createStore } from '../../store/create-store.js';
import { insertMetricSamples, type MetricSampleRow } from '../../store/metric-samples.js';
import { migrate } from '../../store/migrate.js';
import { createLogger } from '../../util/log.js';
import { createApi, type Api } from '../server.js';
import { createPipelineRoutes } from './pipeline-routes.js';

const MINUTE_MS = 60_000;
/** 30 s past a minute line (partial first and last buckets), a minute behind the real clock (TTL). */
const NOW_MS = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS - 30_000;
/** A bucket start 10 minutes before now; the fixtures' samples sit around it. */
const T0 = NOW_MS - 30_000 - 10 * MINUTE_MS;
const T1 = T0 + MINUTE_MS;
const SECOND = 1000;

const dir = mkdtempSync(join(tmpdir(), 'svc-pipeline-series-'));
let store: Store;
let api: Api;
let bus: Bus;

type Point = [number, number | null];
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- checked field by field
async function get(url: string): Promise<{ status: number; body: any }> {
  const response = await api.app.inject({ method: 'GET', url });
  return { status: response.statusCode, body: JSON.parse(response.body) };
}
async function points(query: string): Promise<Point[]> {
  const { status, body } = await get(`/api/v1/pipeline/series?${query}`);
  assert.equal(status, 200, JSON.stringify(body));
  return body.points;
}
const at = (series: Point[], bucketMs: number): number | null | undefined => series.find(([start]) => start === bucketMs)?.[1];

function sample(job: string, instance: string, metric: string, offsetMs: number, value: number, labels: Record<string, string> = {}): MetricSampleRow {
  return { tsMs: T0 + offsetMs, job, instance, metric, labels, value };
}

/** Cumulative histogram samples of one instance at one time: counts per `le`. */
function histogram(instance: string, offsetMs: number, counts: [string, number][], labels: Record<string, string> = {}): MetricSampleRow[] {
  return counts.map(([le, count]) => sample('svc-api', instance, 'svc_api_request_duration_seconds_bucket', offsetMs, count, { ...labels, le }));
}

before(async () => {
  store = await createStore({ clickhouse: { url: '', database: 'svc_pipeline' }, embedded: { data_dir: join(dir, 'data') } });
  await migrate(store);
  const registry = new Registry();
  const logger = createLogger('silent');
  bus = await openTestBus([]);
  api = createApi(
    { listen: { host: '127.0.0.1', port: 0 }, queryTimeoutSecs: 15 },
    {
      traces: createTraceRepo(store, 15),
      registry,
      metricRegistries: [],
      logger,
      routes: [createPipelineRoutes({ store, bus, registry, logger, nowMs: () => NOW_MS })],
      checkResponses: true,
    },
  );
  await api.app.ready();

  const published = 'svc_ingest_records_published_total';
  await insertMetricSamples(store, [
    // Counter, two replicas. a: +60 in T0, then a restart (130 -> 10) counts as +10 in T1.
    sample('svc-ingest', 'a:4318', published, -10 * SECOND, 100),
    sample('svc-ingest', 'a:4318', published, 5 * SECOND, 130),
    sample('svc-ingest', 'a:4318', published, 20 * SECOND, 160),
    sample('svc-ingest', 'a:4318', published, 65 * SECOND, 10),
    // b: +30 in T0, its previous sample in the bucket before.
    sample('svc-ingest', 'b:4318', published, -10 * SECOND, 50),
    sample('svc-ingest', 'b:4318', published, 50 * SECOND, 80),
    // A restart inside a bucket: +10 from before T0, +20, restart to 5 (+5), +20.
    sample('svc-assembler', 'r:9100', 'svc_assembler_spans_total', -10 * SECOND, 40),
    sample('svc-assembler', 'r:9100', 'svc_assembler_spans_total', 5 * SECOND, 50),
    sample('svc-assembler', 'r:9100', 'svc_assembler_spans_total', 20 * SECOND, 70),
    sample('svc-assembler', 'r:9100', 'svc_assembler_spans_total', 35 * SECOND, 5),
    sample('svc-assembler', 'r:9100', 'svc_assembler_spans_total', 50 * SECOND, 25),
    sample('svc-assembler', 'r:9100', 'svc_assembler_spans_total', 65 * SECOND, 26),
    // Another job's series of the same name: only counted without a job filter.
    sample('svc-writer', 'w:9100', published, -10 * SECOND, 0),
    sample('svc-writer', 'w:9100', published, 50 * SECOND, 600),

    // New series: w1 was recorded up before its series first showed (created on first increment:
    // counted from 0); w2 was first recorded in that same tick, w3 was down before and w4 never
    // recorded up (unknown start).
    sample('svc-writer', 'w1:9100', 'up', -10 * SECOND, 1),
    sample('svc-writer', 'w1:9100', 'up', 20 * SECOND, 1),
    sample('svc-writer', 'w1:9100', 'svc_writer_rows_written_total', 20 * SECOND, 4, { table: 'spans' }),
    sample('svc-writer', 'w2:9100', 'up', 20 * SECOND, 1),
    sample('svc-writer', 'w2:9100', 'svc_writer_rows_written_total', 20 * SECOND, 1000, { table: 'spans' }),
    sample('svc-writer', 'w3:9100', 'up', -10 * SECOND, 0),
    sample('svc-writer', 'w3:9100', 'up', 20 * SECOND, 1),
    sample('svc-writer', 'w3:9100', 'svc_writer_rows_written_total', 20 * SECOND, 500, { table: 'spans' }),
    // w4 has no up sample at all.
    sample('svc-writer', 'w4:9100', 'svc_writer_rows_written_total', 20 * SECOND, 700, { table: 'spans' }),

    // A labelled counter for the labels filter.
    sample('svc-notifier', 'n:9100', 'svc_notifier_deliveries_total', -10 * SECOND, 0, { result: 'delivered', target: 'ops' }),
    sample('svc-notifier', 'n:9100', 'svc_notifier_deliveries_total', 50 * SECOND, 120, { result: 'delivered', target: 'ops' }),
    sample('svc-notifier', 'n:9100', 'svc_notifier_deliveries_total', -10 * SECOND, 0, { result: 'failed', target: 'ops' }),
    sample('svc-notifier', 'n:9100', 'svc_notifier_deliveries_total', 50 * SECOND, 6, { result: 'failed', target: 'ops' }),
    sample('svc-notifier', 'n:9100', 'svc_notifier_deliveries_total', -10 * SECOND, 0, { result: 'failed', target: 'chat' }),
    sample('svc-notifier', 'n:9100', 'svc_notifier_deliveries_total', 50 * SECOND, 3, { result: 'failed', target: 'chat' }),

    // Gauges: the last value of each replica in the bucket, then summed or the largest.
    sample('svc-writer', 'a:9100', 'svc_writer_buffered_rows', 5 * SECOND, 10),
    sample('svc-writer', 'a:9100', 'svc_writer_buffered_rows', 50 * SECOND, 20),
    sample('svc-writer', 'b:9100', 'svc_writer_buffered_rows', 20 * SECOND, 5),
    sample('svc-logminer', 'a:9100', 'svc_logminer_data_lag_seconds', 5 * SECOND, 7),
    sample('svc-logminer', 'a:9100', 'svc_logminer_data_lag_seconds', 50 * SECOND, 3),
    sample('svc-logminer', 'b:9100', 'svc_logminer_data_lag_seconds', 20 * SECOND, 2.5),
    sample('svc-logminer', 'a:9100', 'svc_logminer_templates', 50 * SECOND, 100),
    sample('svc-logminer', 'b:9100', 'svc_logminer_templates', 50 * SECOND, 80),
    sample('svc-logminer', 'a:9100', 'up', 50 * SECOND, 1),
    sample('svc-logminer', 'b:9100', 'up', 50 * SECOND, 1),
    sample('svc-logminer', 'c:9100', 'up', 50 * SECOND, 0),
    sample('svc-notifier', 'n:9100', 'up', 50 * SECOND, 0),

    // Histogram, two replicas: a's 10 observations all <= 0.1, b's 10 all in (0.1, 1].
    ...histogram(
      'a:8090',
      -10 * SECOND,
      [
        ['0.1', 0],
        ['1', 0],
        ['+Inf', 0],
      ],
      { route: '/x' },
    ),
    ...histogram(
      'a:8090',
      50 * SECOND,
      [
        ['0.1', 10],
        ['1', 10],
        ['+Inf', 10],
      ],
      { route: '/x' },
    ),
    ...histogram(
      'b:8090',
      -10 * SECOND,
      [
        ['0.1', 0],
        ['1', 0],
        ['+Inf', 0],
      ],
      { route: '/x' },
    ),
    ...histogram(
      'b:8090',
      50 * SECOND,
      [
        ['0.1', 0],
        ['1', 10],
        ['+Inf', 10],
      ],
      { route: '/x' },
    ),
    // In T1 samples exist but nothing was observed: no data, so null.
    ...histogram(
      'a:8090',
      110 * SECOND,
      [
        ['0.1', 10],
        ['1', 10],
        ['+Inf', 10],
      ],
      { route: '/x' },
    ),
    // Another route, only in the quantile without a labels filter: 20 observations above 1.
    ...histogram(
      'c:8090',
      -10 * SECOND,
      [
        ['0.1', 0],
        ['1', 0],
        ['+Inf', 0],
      ],
      { route: '/y' },
    ),
    ...histogram(
      'c:8090',
      50 * SECOND,
      [
        ['0.1', 0],
        ['1', 0],
        ['+Inf', 20],
      ],
      { route: '/y' },
    ),
  ]);
});

after(async () => {
  await api.close();
  await bus.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('pipeline series', () => {
  it('answers the shape on the window grid: 1h, 60 s buckets in Unix ms', async () => {
    const { status, body } = await get('/api/v1/pipeline/series?metric=svc_ingest_records_published_total&kind=rate&job=svc-ingest');
    assert.equal(status, 200);
    assert.deepEqual(Object.keys(body).sort(), ['bucket_secs', 'kind', 'metric', 'points']);
    assert.equal(body.metric, 'svc_ingest_records_published_total');
    assert.equal(body.kind, 'rate');
    assert.equal(body.bucket_secs, 60);
    assert.equal(body.points.length, 61);
    const firstStartMs = Math.floor((NOW_MS - 3_600_000) / MINUTE_MS) * MINUTE_MS;
    assert.deepEqual(
      body.points.map(([start]: Point) => start),
      Array.from({ length: 61 }, (_, i) => firstStartMs + i * MINUTE_MS),
    );
  });

  it('rate: per-second increase summed over replicas, a restart counted from zero, 0 elsewhere', async () => {
    const series = await points('metric=svc_ingest_records_published_total&kind=rate&job=svc-ingest');
    assert.equal(at(series, T0), (60 + 30) / 60);
    assert.equal(at(series, T1), 10 / 60);
    assert.equal(at(series, T0 - MINUTE_MS), 0, 'the samples before T0 only serve as previous values');
    assert.equal(series.filter(([, value]) => value !== 0).length, 2);
  });

  it('rate: a restart inside a bucket counts the value it restarted from', async () => {
    const series = await points('metric=svc_assembler_spans_total&kind=rate');
    assert.equal(at(series, T0), 55 / 60);
    assert.equal(at(series, T1), 1 / 60);
  });

  it('rate: without job, every job with the metric name counts', async () => {
    const series = await points('metric=svc_ingest_records_published_total&kind=rate');
    assert.equal(at(series, T0), (60 + 30 + 600) / 60);
  });

  it('rate: a window that starts after a series began still counts the increase from the sample before it', async () => {
    // The window starts at T0 + 10 s; a's sample at T0 + 5 s is the previous value of the one at T0 + 20 s.
    const sinceSecs = (NOW_MS - (T0 + 10 * SECOND)) / 1000;
    const series = await points(`metric=svc_ingest_records_published_total&kind=rate&job=svc-ingest&since=${sinceSecs}s`);
    assert.equal(at(series, T0), (30 + 30) / 50, 'a +30 and b +30 over the 50 s of T0 inside the window');
  });

  it('rate: a series that appears after its instance was recorded up counts from 0; otherwise its start is unknown', async () => {
    const series = await points('metric=svc_writer_rows_written_total&kind=rate&job=svc-writer');
    assert.equal(at(series, T0), 4 / 60);
  });

  it('labels: every pair must match; several label sets are summed', async () => {
    const failed = await points('metric=svc_notifier_deliveries_total&kind=rate&labels=result%3Dfailed');
    assert.equal(at(failed, T0), 9 / 60);
    const failedOps = await points('metric=svc_notifier_deliveries_total&kind=rate&labels=result%3Dfailed,target%3Dops');
    assert.equal(at(failedOps, T0), 6 / 60);
    const all = await points('metric=svc_notifier_deliveries_total&kind=rate&job=svc-notifier');
    assert.equal(at(all, T0), 129 / 60);
    const none = await points('metric=svc_notifier_deliveries_total&kind=rate&labels=result%3Dstale');
    assert.ok(none.every(([, value]) => value === 0));
  });

  it('gauge: last value per replica, summed for an ordinary gauge, null without a sample', async () => {
    const series = await points('metric=svc_writer_buffered_rows&kind=gauge');
    assert.equal(at(series, T0), 25);
    assert.equal(at(series, T1), null);
    assert.equal(series.filter(([, value]) => value !== null).length, 1);
  });

  it('gauge: *_data_lag_seconds, *_templates and up take the largest replica', async () => {
    assert.equal(at(await points('metric=svc_logminer_data_lag_seconds&kind=gauge'), T0), 3, "a's last value 3, not its earlier 7; b's 2.5");
    assert.equal(at(await points('metric=svc_logminer_templates&kind=gauge'), T0), 100);
    assert.equal(at(await points('metric=up&kind=gauge&job=svc-logminer'), T0), 1, 'two replicas up and one down: 1, not 2');
    assert.equal(at(await points('metric=up&kind=gauge&job=svc-notifier'), T0), 0);
  });

  it('q50 and q99 from bucket increases summed over replicas; null in buckets without data', async () => {
    const q50 = await points('metric=svc_api_request_duration_seconds&kind=q50&labels=route%3D/x');
    const q99 = await points('metric=svc_api_request_duration_seconds&kind=q99&labels=route%3D/x');
    // Summed: 10 at or below 0.1, 20 at or below 1. Rank 10 ends bucket 0.1; rank 19.8 is 98 % into (0.1, 1].
    assert.equal(at(q50, T0), 0.1);
    assert.ok(Math.abs((at(q99, T0) as number) - (0.1 + 0.9 * 0.98)) < 1e-12, String(at(q99, T0)));
    assert.equal(at(q50, T1), null, 'samples but no observations');
    assert.equal(at(q99, T0 - MINUTE_MS), null, 'no samples');
    assert.equal(q50.filter(([, value]) => value !== null).length, 1);
  });

  it('quantiles accept the histogram name with _bucket and echo the metric as asked', async () => {
    const { body } = await get('/api/v1/pipeline/series?metric=svc_api_request_duration_seconds_bucket&kind=q50&labels=route%3D/x');
    assert.equal(body.metric, 'svc_api_request_duration_seconds_bucket');
    assert.equal(body.kind, 'q50');
    assert.equal(at(body.points, T0), 0.1);
  });

  it('quantiles over every label set without a filter; a rank in +Inf answers the largest finite bound', async () => {
    // 10 <= 0.1, 20 <= 1, 40 in all: rank 20 of q50 ends bucket 1 exactly; q99 lies in +Inf.
    assert.equal(at(await points('metric=svc_api_request_duration_seconds&kind=q50'), T0), 1);
    assert.equal(at(await points('metric=svc_api_request_duration_seconds&kind=q99'), T0), 1);
  });
});

describe('pipeline series 400s', () => {
  const cases: [string, string][] = [
    ['kind=rate', 'metric is required'],
    ['metric=&kind=rate', 'metric is required'],
    ['metric=Svc_x&kind=rate', 'metric must match [a-z_:][a-z0-9_:]*'],
    ['metric=9x&kind=rate', 'metric must match [a-z_:][a-z0-9_:]*'],
    ['metric=svc-x&kind=rate', 'metric must match [a-z_:][a-z0-9_:]*'],
    [`metric=${'a'.repeat(201)}&kind=rate`, 'metric must be at most 200 characters'],
    ['metric=a&metric=b&kind=rate', 'metric must be given once'],
    ['metric=up', 'kind must be rate, gauge, q50 or q99'],
    ['metric=up&kind=p99', 'kind must be rate, gauge, q50 or q99'],
    ['metric=up&kind=gauge&job=svc-web', 'job must be one of svc-ingest, svc-writer, svc-assembler, svc-logminer, svc-notifier, svc-api'],
    ['metric=up&kind=gauge&labels=a', 'labels must be k=v pairs, at most 8'],
    ['metric=up&kind=gauge&labels=%3Dv', 'labels must be k=v pairs, at most 8'],
    ['metric=up&kind=gauge&labels=a%3D1,', 'labels must be k=v pairs, at most 8'],
    ['metric=up&kind=gauge&labels=a-b%3D1', 'labels must be k=v pairs, at most 8'],
    [`metric=up&kind=gauge&labels=${Array.from({ length: 9 }, (_, i) => `k${i}%3Dv`).join(',')}`, 'labels must be k=v pairs, at most 8'],
    ['metric=up&kind=gauge&labels=a%3D1,a%3D2', 'labels must not name a twice'],
    [`metric=up&kind=gauge&labels=a%3D${'v'.repeat(201)}`, 'label values must be at most 200 characters'],
    ['metric=up&kind=gauge&since=8d', 'since must be within 1s..7d'],
    ['metric=up&kind=gauge&since=1x', 'since must be <n>s, <n>m, <n>h or <n>d'],
    [`metric=up&kind=gauge&until=${Math.floor(NOW_MS / 1000) + 120}`, 'until must be at most 60s in the future'],
  ];
  for (const [query, message] of cases) {
    it(`${query.slice(0, 80)} -> ${message}`, async () => {
      const { status, body } = await get(`/api/v1/pipeline/series?${query}`);
      assert.equal(status, 400);
      assert.deepEqual(body, { error: message });
    });
  }

  it('accepts 8 label pairs, an empty value and = inside a value', async () => {
    const labels = [...Array.from({ length: 7 }, (_, i) => `k${i}%3Dv`), 'e%3D'].join(',');
    assert.equal((await get(`/api/v1/pipeline/series?metric=up&kind=gauge&labels=${labels}`)).status, 200);
    assert.equal((await get('/api/v1/pipeline/series?metric=up&kind=gauge&labels=a%3Db%3Dc')).status, 200);
  });
});
