import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from './errors.js';
import { bucketCoveredSecs, bucketGrid, bucketSecsFor, parseSince, parseUntil, resolveWindow } from './window.js';

/** 2026-11-22T10:00:30Z: half a minute past a grid line, so first and last buckets are partial. */
const NOW_MS = Date.UTC(2026, 10, 22, 10, 0, 30);
const NOW_SECS = NOW_MS / 1000;

function rejects400(fn: () => unknown, message: string): void {
  assert.throws(fn, (error: unknown) => error instanceof ApiError && error.status === 400 && error.message === message);
}

describe('since', () => {
  const cases: [string | undefined, number][] = [
    [undefined, 3_600],
    ['', 3_600],
    ['1s', 1],
    ['90s', 90],
    ['15m', 900],
    ['24h', 86_400],
    ['7d', 604_800],
    ['10080m', 604_800],
    ['604800s', 604_800],
  ];
  for (const [value, secs] of cases) {
    it(`${JSON.stringify(value)} is ${secs} s (default 1h)`, () => assert.equal(parseSince(value, 3_600), secs));
  }
  for (const value of ['0s', '0d', '8d', '604801s', '169h']) {
    it(`${value} is out of range`, () => rejects400(() => parseSince(value, 3_600), 'since must be within 1s..7d'));
  }
  for (const value of ['1', '1w', '-1h', '1.5h', 'h', ' 1h', '1H']) {
    it(`${JSON.stringify(value)} is malformed`, () => rejects400(() => parseSince(value, 3_600), 'since must be <n>s, <n>m, <n>h or <n>d'));
  }
});

describe('until', () => {
  const cases: [string, number][] = [
    ['2026-11-22T10:00:00Z', Date.UTC(2026, 10, 22, 10) / 1000],
    ['2026-11-22t10:00:00z', Date.UTC(2026, 10, 22, 10) / 1000],
    ['2026-11-22T12:00:00.987654+02:00', Date.UTC(2026, 10, 22, 10) / 1000],
    ['2026-11-22T05:30:00-04:30', Date.UTC(2026, 10, 22, 10) / 1000],
    ['2026-11-22 10:00:59.999Z', Date.UTC(2026, 10, 22, 10, 0, 59) / 1000],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29) / 1000],
    ['1795000000', 1_795_000_000],
    ['0', 0],
  ];
  for (const [value, secs] of cases) {
    it(`${value} is ${secs}`, () => assert.equal(parseUntil(value), secs));
  }
  for (const value of [
    '2026-13-01T00:00:00Z',
    '2026-02-29T00:00:00Z',
    '2026-11-22T24:00:00Z',
    '2026-11-22T10:00:00',
    '2026-11-22',
    'now',
    '-5',
    '1.5',
    '2026-11-22T10:00:00+2:00',
  ]) {
    it(`${value} is refused`, () => rejects400(() => parseUntil(value), 'until must be rfc 3339 or unix seconds'));
  }
});

describe('bucket_secs', () => {
  const cases: [number, number][] = [
    [1, 60],
    [3_600, 60],
    [7_200, 60],
    [7_201, 120],
    [21_600, 180],
    [86_400, 720],
    [604_800, 5_040],
  ];
  for (const [windowSecs, bucketSecs] of cases) {
    it(`a ${windowSecs} s window has ${bucketSecs} s buckets`, () => assert.equal(bucketSecsFor(windowSecs), bucketSecs));
  }
});

describe('resolveWindow', () => {
  it('without until ends now, and row lists reach 60 s past now', () => {
    const window = resolveWindow({}, 3_600, NOW_MS);
    assert.equal(window.endMs, NOW_MS);
    assert.equal(window.startMs, NOW_MS - 3_600_000);
    assert.equal(window.rowsEndMs, NOW_MS + 60_000);
    assert.equal(window.bucketSecs, 60);
  });

  it('with until ends there for rows too', () => {
    const window = resolveWindow({ since: '24h', until: String(NOW_SECS - 100) }, 3_600, NOW_MS);
    assert.equal(window.endMs, NOW_MS - 100_000);
    assert.equal(window.rowsEndMs, NOW_MS - 100_000);
    assert.equal(window.startMs, NOW_MS - 100_000 - 86_400_000);
    assert.equal(window.bucketSecs, 720);
  });

  it('accepts until exactly 60 s ahead and refuses 61 s', () => {
    assert.equal(resolveWindow({ until: String(NOW_SECS + 60) }, 3_600, NOW_MS).endMs, NOW_MS + 60_000);
    rejects400(() => resolveWindow({ until: String(NOW_SECS + 61) }, 3_600, NOW_MS), 'until must be at most 60s in the future');
    rejects400(() => resolveWindow({ until: '2026-11-22T12:01:31+02:00' }, 3_600, NOW_MS), 'until must be at most 60s in the future');
  });

  it('accepts a window starting exactly 7 days ago and refuses one a second older', () => {
    const window = resolveWindow({ since: '7d', until: String(NOW_SECS) }, 3_600, NOW_MS);
    assert.equal(window.startMs, NOW_MS - 604_800_000);
    assert.equal(window.bucketSecs, 5_040);
    rejects400(() => resolveWindow({ since: '7d', until: String(NOW_SECS - 1) }, 3_600, NOW_MS), 'window start must be within the last 7 days');
    rejects400(() => resolveWindow({ since: '1h', until: '2026-11-01T00:00:00Z' }, 3_600, NOW_MS), 'window start must be within the last 7 days');
  });

  it('treats empty since and until as absent', () => {
    const window = resolveWindow({ since: '', until: '' }, 86_400, NOW_MS);
    assert.equal(window.windowSecs, 86_400);
    assert.equal(window.endMs, NOW_MS);
  });
});

describe('bucket grid', () => {
  it('puts buckets on epoch multiples with partial first and last buckets', () => {
    const window = resolveWindow({ since: '1h' }, 3_600, NOW_MS);
    const grid = bucketGrid(window);
    assert.equal(grid.length, 61);
    assert.equal(grid[0], NOW_SECS - 3_600 - 30);
    assert.equal(grid[60], NOW_SECS - 30);
    assert.ok(grid.every((start) => start % 60 === 0));
    assert.equal(bucketCoveredSecs(window, grid[0]), 30);
    assert.equal(bucketCoveredSecs(window, grid[1]), 60);
    assert.equal(bucketCoveredSecs(window, grid[60]), 30);
    const covered = grid.reduce((sum, start) => sum + bucketCoveredSecs(window, start), 0);
    assert.equal(covered, 3_600);
  });

  it('has exactly 120 whole buckets when the window lies on the grid', () => {
    const window = resolveWindow({ since: '24h', until: String(Math.floor(NOW_SECS / 720) * 720) }, 3_600, NOW_MS);
    const grid = bucketGrid(window);
    assert.equal(grid.length, 120);
    assert.ok(grid.every((start) => start % 720 === 0 && bucketCoveredSecs(window, start) === 720));
  });

  it('uses 5040 s buckets over 7 days, each a multiple of 5040 since the epoch', () => {
    const window = resolveWindow({ since: '7d' }, 3_600, NOW_MS);
    const grid = bucketGrid(window);
    assert.ok(grid.every((start) => start % 5_040 === 0));
    assert.ok(grid.length === 120 || grid.length === 121);
    assert.equal(
      grid.reduce((sum, start) => sum + bucketCoveredSecs(window, start), 0),
      604_800,
    );
  });
});
