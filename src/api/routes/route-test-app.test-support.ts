/**
 * Test support for the data routes: an API built by createApi over real chDB in a temp dir with an
 * injected clock, and row builders that insert straight into the tables. Not a test file itself:
 * each route test file opens one (chDB allows one engine per process).
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { createTraceRepo } from '../trace-repo.js';
import { MINUTE_MS } from '../../util/time-units.js';
import type { SpanRow } from '../../model/signals.js';
import type { Store } from '../../model/store.js';
import { createStore } from '../../store/create-store.js';
import { migrate } from '../../store/migrate.js';
import { insertSpans } from '../../testing/store-rows.js';
import { createLogger } from '../../util/log.js';
import { parseJsonExact, stringifyJson } from '../../util/json.js';
import { createApi, type Api } from '../server.js';
import { createStoryRoutes } from './story-routes.js';

export { MINUTE_MS };

/**
 * The injected "now": 30 s past a minute line (so first and last buckets are partial) and a
 * minute behind the real clock, so the tables' TTLs (real time) never drop a fixture.
 */
export const NOW_MS = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS - 30_000;
export const NOW_SECS = NOW_MS / 1000;

/** Unix ns of `NOW_MS + offsetMs`. */
export const nsAt = (offsetMs: number): bigint => BigInt(NOW_MS + offsetMs) * 1_000_000n;

export interface TestApi {
  store: Store;
  api: Api;
  /** GETs `url` and parses the body with exact 64-bit integers. */
  get(url: string): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test bodies are checked field by field
  close(): Promise<void>;
}

export async function openTestApi(name: string): Promise<TestApi> {
  const dir = mkdtempSync(join(tmpdir(), `svc-${name}-`));
  const store = await createStore({ clickhouse: { url: '', database: 'svc_routes' }, embedded: { data_dir: join(dir, 'data') } });
  await migrate(store);
  const api = createApi(
    { listen: { host: '127.0.0.1', port: 0 }, queryTimeoutSecs: 15 },
    {
      traces: createTraceRepo(store, 15),
      registry: new Registry(),
      metricRegistries: [],
      logger: createLogger('silent'),
      routes: [createStoryRoutes(store, { nowMs: () => NOW_MS })],
      checkResponses: true,
    },
  );
  await api.app.ready();
  return {
    store,
    api,
    async get(url) {
      const response = await api.app.inject({ method: 'GET', url });
      return { status: response.statusCode, body: response.body === '' ? undefined : parseJsonExact(response.body) };
    },
    async close() {
      await api.close();
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A 32-hex id from a small number, readable in failures. */
export const hexId = (n: number): string => n.toString(16).padStart(32, '0');

export interface StoryFixture {
  storyId: string;
  fingerprint: string;
  kind: 'error' | 'slow';
  tsNs: bigint;
  durationNs: bigint;
  endpointService: string;
  endpointName: string;
  rcService: string;
  rcSpanName: string;
  summary: string;
  writtenAtMs: number;
}

/** The story JSON stored with a fixture: the API shape as the assembler writes it. */
export function storyJson(s: StoryFixture): string {
  return stringifyJson({
    story_id: s.storyId,
    fingerprint: s.fingerprint,
    kind: s.kind,
    ts_ns: s.tsNs,
    duration_ns: s.durationNs,
    trace_id: s.storyId,
    endpoint_service: s.endpointService,
    endpoint_name: s.endpointName,
    root_cause: {
      service: s.rcService,
      span_name: s.rcSpanName,
      span_kind: 'server',
      span_id: '00000000000000aa',
      message: s.kind === 'slow' ? 'slow' : 'boom',
      exception_type: '',
    },
    summary: s.summary,
    path_services: [s.endpointService, s.rcService],
    path_spans: [],
    critical_path: { segments: [], top: [] },
    baseline_diff: null,
    logs: [],
    also_failed: [],
    span_count: 2,
    flags: [],
  });
}

export async function insertStories(store: Store, stories: StoryFixture[]): Promise<void> {
  await store.insert(
    'stories',
    [
      'story_id',
      'fingerprint',
      'kind',
      'ts_ns',
      'duration_ns',
      'endpoint_service',
      'endpoint_name',
      'rc_service',
      'rc_span_name',
      'summary',
      'story',
      'written_at_ms',
    ],
    stories.map((s) => [
      s.storyId,
      BigInt(s.fingerprint),
      s.kind,
      s.tsNs,
      s.durationNs,
      s.endpointService,
      s.endpointName,
      s.rcService,
      s.rcSpanName,
      s.summary,
      storyJson(s),
      s.writtenAtMs,
    ]),
  );
}

/** A span with the fields the routes read; the rest plain. */
export function spanRow(traceId: string, spanNo: number, over: Partial<SpanRow> & { startNs: bigint; durationMs: number }): SpanRow {
  const { durationMs, ...rest } = over;
  return {
    traceId,
    spanId: spanNo.toString(16).padStart(16, '0'),
    parentSpanId: '',
    serviceName: 'svc',
    name: 'op',
    kind: 'server',
    endNs: over.startNs + BigInt(Math.round(durationMs * 1_000_000)),
    status: 'unset',
    statusMessage: '',
    attrs: [],
    resource: [],
    events: [],
    scopeName: '',
    scopeVersion: '',
    ...rest,
  };
}

export { insertSpans };
