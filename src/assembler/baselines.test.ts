import { test } from 'node:test';
import assert from 'node:assert/strict';
import { endpointKey } from '../analysis/baseline.js';
import { DEFAULT_THRESHOLDS } from '../analysis/fixtures.test-support.js';
import type { BaselineSample } from '../analysis/types.js';
import { createLogger } from '../util/log.js';
import { Baselines, BASELINE_MAX_ROWS, BASELINE_TRACES_PER_ENDPOINT, type SampleReader } from './baselines.js';

const KEY = endpointKey('api', 'GET /x');
const samples = (n: number, ms: number): BaselineSample[] =>
  Array.from({ length: n }, () => ({
    duration_ns: BigInt(ms) * 1_000_000n,
    is_error: false,
    ops: [{ op: 'api: GET /x', duration_ns: BigInt(ms) * 1_000_000n }],
  }));

function setup(reader: SampleReader) {
  const events: string[] = [];
  let nowMs = 1_800_000_000_000;
  const baselines = new Baselines({
    assembler: { baseline_window_minutes: 60, baseline_refresh_secs: 60 },
    thresholds: DEFAULT_THRESHOLDS,
    readSamples: reader,
    nowMs: () => nowMs,
    logger: createLogger('off'),
    onRefreshed: (trusted) => events.push(`refreshed ${trusted}`),
    onFailure: () => events.push('failed'),
  });
  return { baselines, events, advance: (ms: number) => (nowMs += ms) };
}

test('a reload reads the window with its bounds and builds trusted baselines from 50 traces', async () => {
  const queries: Parameters<SampleReader>[0][] = [];
  const { baselines, events } = setup(async (query) => {
    queries.push(query);
    return new Map([[KEY, samples(50, 20)]]);
  });
  await baselines.refresh();
  assert.deepEqual(queries, [
    {
      sinceNs: (1_800_000_000_000n - 3_600_000n) * 1_000_000n,
      nowMs: 1_800_000_000_000,
      perEndpoint: BASELINE_TRACES_PER_ENDPOINT,
      maxRows: BASELINE_MAX_ROWS,
    },
  ]);
  assert.equal(baselines.lookup(KEY)?.trusted, true);
  assert.equal(baselines.lookup(KEY)?.p99_ns, 20_000_000n);
  assert.equal(baselines.lookup('other'), null);
  assert.deepEqual(events, ['refreshed 1']);
});

test('49 traces are not trusted', async () => {
  const { baselines, events } = setup(async () => new Map([[KEY, samples(49, 20)]]));
  await baselines.refresh();
  assert.equal(baselines.lookup(KEY)?.trusted, false);
  assert.deepEqual(events, ['refreshed 0']);
});

test('a failed reload keeps the baselines in use; a polluted window is carried', async () => {
  let next: () => Promise<Map<string, BaselineSample[]>> = async () => new Map([[KEY, samples(60, 20)]]);
  const { baselines, events, advance } = setup(() => next());
  await baselines.refresh();
  next = async () => {
    throw new Error('store down');
  };
  await baselines.refresh();
  assert.equal(baselines.lookup(KEY)?.p99_ns, 20_000_000n);
  // A slowdown fills the window: its p99 would be slow against the adopted one, so it is carried.
  next = async () => new Map([[KEY, samples(60, 500)]]);
  advance(60_000);
  await baselines.refresh();
  assert.equal(baselines.lookup(KEY)?.p99_ns, 20_000_000n);
  // After two windows the slowdown is the new normal.
  advance(120 * 60_000);
  await baselines.refresh();
  assert.equal(baselines.lookup(KEY)?.p99_ns, 500_000_000n);
  assert.deepEqual(events, ['refreshed 1', 'failed', 'refreshed 1', 'refreshed 1']);
});

test('concurrent refreshes share one reload', async () => {
  let reads = 0;
  const { baselines } = setup(async () => {
    reads++;
    await new Promise((resolve) => setTimeout(resolve, 10));
    return new Map();
  });
  await Promise.all([baselines.refresh(), baselines.refresh()]);
  assert.equal(reads, 1);
});
