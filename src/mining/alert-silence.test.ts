import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alertId } from './alert-id.js';
import { detectSilenceAlerts } from './alert-silence.js';
import { T0_MIN, nsAtMinute, template } from './alert-helpers.test-support.js';

const run = (lastHitMin: number, clockNs: bigint, enabled = true) =>
  detectSilenceAlerts({
    templates: [template('t', T0_MIN - 100, {}, 'svc', lastHitMin)],
    silences: new Map([['t', { enabled, minutes: 10 }]]),
    serviceLogClockNs: new Map([['svc', clockNs]]),
  });

test('silence starts once the log clock passes last hit + M minutes', () => {
  assert.equal(run(T0_MIN, nsAtMinute(T0_MIN + 10)).length, 0);
  const [a] = run(T0_MIN, nsAtMinute(T0_MIN + 10) + 1n);
  assert.equal(a.kind, 'silence');
  assert.equal(a.started_at_ns, nsAtMinute(T0_MIN));
  assert.equal(a.last_at_ns, nsAtMinute(T0_MIN + 10) + 1n);
  assert.equal(a.alert_id, alertId('silence', 't', nsAtMinute(T0_MIN)));
  assert.equal(a.window_count, 0);
});

test('silence is refreshed under the same id while it lasts, and a new hit ends it', () => {
  const first = run(T0_MIN, nsAtMinute(T0_MIN + 11))[0];
  const later = run(T0_MIN, nsAtMinute(T0_MIN + 30))[0];
  assert.equal(later.alert_id, first.alert_id);
  assert.equal(later.last_at_ns, nsAtMinute(T0_MIN + 30));
  // A hit at +31: no silence until +41, and a later one is a different alert.
  assert.equal(run(T0_MIN + 31, nsAtMinute(T0_MIN + 35)).length, 0);
  assert.notEqual(run(T0_MIN + 31, nsAtMinute(T0_MIN + 45))[0].alert_id, first.alert_id);
});

test('silence is opt-in and needs a log clock for the service', () => {
  assert.equal(run(T0_MIN, nsAtMinute(T0_MIN + 60), false).length, 0);
  assert.equal(
    detectSilenceAlerts({ templates: [template('t', T0_MIN)], silences: new Map(), serviceLogClockNs: new Map([['svc', nsAtMinute(T0_MIN + 99)]]) }).length,
    0,
  );
  assert.equal(
    detectSilenceAlerts({ templates: [template('t', T0_MIN)], silences: new Map([['t', { enabled: true, minutes: 1 }]]), serviceLogClockNs: new Map() }).length,
    0,
  );
});
