import { test } from 'node:test';
import assert from 'node:assert/strict';
import { alertId } from './alert-id.js';
import { detectNewAlerts } from './alert-new.js';
import { SETTINGS, T0_MIN, nsAtMinute, template } from './alert-helpers.test-support.js';

const base = template('old', T0_MIN);
/** prevMin may be fractional (seconds precision). */
const nsAt = (minute: number): bigint => nsAtMinute(Math.floor(minute)) + BigInt(Math.round((minute % 1) * 60)) * 1_000_000_000n;
const run = (t: ReturnType<typeof template>[], prevMin: number | null, clockMin: number, epochMin: number | null = null) =>
  detectNewAlerts({
    templates: t,
    prevDataClockNs: prevMin === null ? null : nsAt(prevMin),
    dataClockNs: nsAt(clockMin),
    maskingEpochStartNs: epochMin === null ? null : nsAtMinute(epochMin),
    settings: SETTINGS,
  });

test('a template first seen after the previous data clock in a warmed-up service raises new', () => {
  const fresh = template('fresh', T0_MIN + 20, { [T0_MIN + 20]: 3 });
  const alerts = run([base, fresh], T0_MIN + 19, T0_MIN + 21);
  assert.equal(alerts.length, 1);
  const a = alerts[0];
  assert.equal(a.kind, 'new');
  assert.equal(a.template_id, 'fresh');
  assert.equal(a.alert_id, alertId('new', 'fresh', T0_MIN + 20));
  assert.equal(a.started_at_ns, nsAtMinute(T0_MIN + 20));
  assert.equal(a.window_count, 0);
  assert.equal(a.peak_count, 3);
});

test('the previous data clock has 60 s of slack', () => {
  const fresh = template('fresh', T0_MIN + 20);
  // First seen 30 s before the previous clock: still new. 60 s or more before: not.
  assert.equal(run([base, fresh], T0_MIN + 20.5, T0_MIN + 22).length, 1);
  assert.equal(run([base, fresh], T0_MIN + 21, T0_MIN + 22).length, 0);
  assert.equal(run([base, fresh], T0_MIN + 25, T0_MIN + 26).length, 0);
});

test('warm-up: the service needs another template at least 15 minutes older', () => {
  assert.equal(run([base, template('fresh', T0_MIN + 14)], T0_MIN + 13, T0_MIN + 15).length, 0);
  assert.equal(run([base, template('fresh', T0_MIN + 15)], T0_MIN + 14, T0_MIN + 16).length, 1);
  // The first template of a service never alerts; other services do not count.
  assert.equal(run([template('lonely', T0_MIN + 30, {}, 'b'), base], T0_MIN + 29, T0_MIN + 31).length, 0);
  // On the first tick (no previous clock) only the last 60 s before this tick's clock count.
  assert.equal(run([base, template('fresh', T0_MIN + 15)], null, T0_MIN + 16).length, 0);
  assert.equal(run([base, template('fresh', T0_MIN + 15)], null, T0_MIN + 15.5).length, 1);
});

test('no new alerts during the 15 minutes after a masking epoch starts', () => {
  const epoch = T0_MIN + 30;
  // Ticks inside the quiet period raise nothing.
  assert.equal(run([base, template('f', epoch + 5)], epoch + 4, epoch + 6, epoch).length, 0);
  // A template first seen inside it stays quiet afterwards too.
  assert.equal(run([base, template('f', epoch + 14)], epoch + 14, epoch + 16, epoch).length, 0);
  // After the quiet period, new templates alert again.
  assert.equal(run([base, template('f', epoch + 15)], epoch + 15, epoch + 16, epoch).length, 1);
});
