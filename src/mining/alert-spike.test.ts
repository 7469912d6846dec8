import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alertId } from './alert-id.js';
import { detectSpikeAlerts } from './alert-spike.js';
import type { AlertSettings, LogAlert, TemplateState } from './alert-types.js';
import { SETTINGS, T0_MIN, coveredRange, nsAtMinute, template } from './alert-helpers.test-support.js';

// Wall clock 30 s into minute T0: the window is [T0-5, T0), the baseline [T0-65, T0-5).
const NOW_NS = nsAtMinute(T0_MIN) + 30_000_000_000n;
const W0 = T0_MIN - 5;

/** Counts: `perBaselineMinute` in each baseline minute, `windowTotal` spread over the window. */
function counts(perBaselineMinute: number, windowTotal: number): Record<number, number> {
  const c: Record<number, number> = {};
  for (let m = W0 - 60; m < W0; m++) c[m] = perBaselineMinute;
  for (let i = 0; i < 5; i++) c[W0 + i] = Math.floor(windowTotal / 5) + (i < windowTotal % 5 ? 1 : 0);
  return c;
}

function run(templates: TemplateState[], opts: { settings?: AlertSettings; coverage?: Set<number>; previous?: Map<string, LogAlert> } = {}) {
  return detectSpikeAlerts({
    templates,
    wallClockNs: NOW_NS,
    coverage: new Map([['svc', opts.coverage ?? coveredRange(T0_MIN - 10_100, T0_MIN)]]),
    previous: opts.previous ?? new Map(),
    settings: opts.settings ?? SETTINGS,
  });
}

test('spike: window count >= 5 x the scaled baseline and >= 10', () => {
  // Baseline 60/h = 5 per window: 25 is a spike, 24 is not.
  const r = run([template('t', T0_MIN - 1000, counts(1, 25))]);
  assert.equal(r.alerts.length, 1);
  const a = r.alerts[0];
  assert.equal(a.kind, 'spike');
  assert.equal(a.window_count, 25);
  assert.equal(a.peak_count, 25);
  assert.equal(a.baseline_per_window, 5);
  assert.equal(a.started_at_ns, nsAtMinute(W0));
  assert.equal(a.last_at_ns, nsAtMinute(T0_MIN));
  assert.equal(a.alert_id, alertId('spike', 't', W0));
  assert.equal(a.baseline_day, undefined);
  assert.equal(run([template('t', T0_MIN - 1000, counts(1, 24))]).alerts.length, 0);
  // No baseline: the minimum count decides.
  assert.equal(run([template('t', T0_MIN - 1000, counts(0, 10))]).alerts.length, 1);
  assert.equal(run([template('t', T0_MIN - 1000, counts(0, 9))]).alerts.length, 0);
});

test('spike: the template must be at least 10 minutes old at the window end', () => {
  assert.equal(run([template('t', T0_MIN - 10, counts(0, 50))]).alerts.length, 1);
  assert.equal(run([template('t', T0_MIN - 9, counts(0, 50))]).alerts.length, 0);
});

test('spike: thin coverage skips the window and is counted', () => {
  // Window: 2 of 5 minutes covered.
  const thinWindow = coveredRange(W0 - 60, W0 + 2);
  const r = run([template('t', T0_MIN - 1000, counts(0, 50))], { coverage: thinWindow });
  assert.deepEqual([r.alerts.length, r.skippedWindows], [0, 1]);
  // Window 3 of 5 (at least half): judged.
  assert.equal(run([template('t', T0_MIN - 1000, counts(0, 50))], { coverage: coveredRange(W0 - 60, W0 + 3) }).alerts.length, 1);
  // Baseline hour: 29 of 60 covered skips, 30 is enough.
  const cov29 = new Set([...coveredRange(W0 - 29, T0_MIN)]);
  assert.equal(run([template('t', T0_MIN - 1000, counts(0, 50))], { coverage: cov29 }).skippedWindows, 1);
  const cov30 = new Set([...coveredRange(W0 - 30, T0_MIN)]);
  assert.equal(run([template('t', T0_MIN - 1000, counts(0, 50))], { coverage: cov30 }).alerts.length, 1);
  // Templates below the minimum count are not counted as skipped.
  assert.equal(run([template('t', T0_MIN - 1000, counts(0, 5))], { coverage: thinWindow }).skippedWindows, 0);
});

test('seasonal: the same window a day and a week earlier must also be exceeded', () => {
  const seasonal = { ...SETTINGS, baseline_mode: 'seasonal' as const };
  const c = counts(0, 40);
  for (let i = 0; i < 5; i++) c[W0 + i - 1440] = 2; // 10 a day earlier: 40 < 50, no spike
  assert.equal(run([template('t', T0_MIN - 20_000, c)], { settings: seasonal }).alerts.length, 0);
  assert.equal(run([template('t', T0_MIN - 20_000, c)]).alerts.length, 1, 'flat mode ignores the day');
  for (let i = 0; i < 5; i++) c[W0 + i - 1440] = 1; // 5 a day earlier: 40 >= 25
  const r = run([template('t', T0_MIN - 20_000, c)], { settings: seasonal });
  assert.equal(r.alerts.length, 1);
  assert.equal(r.alerts[0].baseline_day, 5);
  assert.equal(r.alerts[0].baseline_week, 0);
  // A week earlier that exceeds blocks too; an uncovered week is ignored.
  for (let i = 0; i < 5; i++) c[W0 + i - 10080] = 4;
  assert.equal(run([template('t', T0_MIN - 20_000, c)], { settings: seasonal }).alerts.length, 0);
  const noWeekHistory = coveredRange(T0_MIN - 2000, T0_MIN);
  assert.equal(run([template('t', T0_MIN - 20_000, c)], { settings: seasonal, coverage: noWeekHistory }).alerts.length, 1);
});

test('a running spike keeps its id and start and tracks the peak', () => {
  const prev: LogAlert = {
    alert_id: 'abcdabcdabcdabcd',
    kind: 'spike',
    template_id: 't',
    service: 'svc',
    template: 'tpl t',
    started_at_ns: nsAtMinute(W0 - 1),
    last_at_ns: nsAtMinute(T0_MIN - 1),
    window_count: 60,
    peak_count: 60,
    baseline_per_window: 0,
    example_traces: [],
  };
  const r = run([template('t', T0_MIN - 1000, counts(0, 30))], { previous: new Map([['t', prev]]) });
  assert.equal(r.alerts[0].alert_id, prev.alert_id);
  assert.equal(r.alerts[0].started_at_ns, prev.started_at_ns);
  assert.equal(r.alerts[0].peak_count, 60);
  assert.equal(r.alerts[0].window_count, 30);
  // A spike that ended before this window starts over.
  const old = { ...prev, last_at_ns: nsAtMinute(W0 - 1) };
  assert.equal(run([template('t', T0_MIN - 1000, counts(0, 30))], { previous: new Map([['t', old]]) }).alerts[0].alert_id, alertId('spike', 't', W0));
});
