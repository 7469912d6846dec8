import { test } from 'node:test';
import assert from 'node:assert/strict';
import xxhash from '@node-rs/xxhash';
import { alertId } from './alert-id.js';
import { isAlertActive, isTemplateAlerting } from './alert-status.js';
import { detectAlerts } from './alert-detect.js';
import { SETTINGS, T0_MIN, coveredRange, nsAtMinute, template } from './alert-helpers.test-support.js';

test('alert ids: 16 hex chars of xxh3 over kind, template id and start, zero-byte separated', () => {
  const id = alertId('spike', '123', 456);
  assert.match(id, /^[0-9a-f]{16}$/);
  assert.equal(id, alertId('spike', '123', 456));
  assert.equal(id, xxhash.xxh3.xxh64('spike\x00123\x00456').toString(16).padStart(16, '0'));
  assert.notEqual(id, alertId('new', '123', 456));
  assert.notEqual(id, alertId('spike', '124', 456));
  assert.notEqual(id, alertId('spike', '123', 457));
  assert.equal(alertId('silence', '1', 10n), alertId('silence', '1', 10));
});

test('active while last_at is within 10 minutes of the window end', () => {
  const end = nsAtMinute(T0_MIN);
  assert.equal(isAlertActive({ last_at_ns: nsAtMinute(T0_MIN - 10) }, end), true);
  assert.equal(isAlertActive({ last_at_ns: nsAtMinute(T0_MIN - 10) - 1n }, end), false);
  assert.equal(isAlertActive({ last_at_ns: end }, end), true);
});

test('a template is alerting only for an active new or spike alert', () => {
  const end = nsAtMinute(T0_MIN);
  const recent = nsAtMinute(T0_MIN - 1);
  assert.equal(isTemplateAlerting([{ kind: 'silence', last_at_ns: recent }], end), false);
  assert.equal(isTemplateAlerting([{ kind: 'new', last_at_ns: recent }], end), true);
  assert.equal(isTemplateAlerting([{ kind: 'spike', last_at_ns: nsAtMinute(T0_MIN - 11) }], end), false);
  assert.equal(isTemplateAlerting([], end), false);
});

test('detectAlerts runs the three rules over one state', () => {
  const spiky: Record<number, number> = {};
  for (let i = 1; i <= 5; i++) spiky[T0_MIN - i] = 20;
  const r = detectAlerts({
    templates: [
      template('old', T0_MIN - 500, spiky, 'svc', T0_MIN - 1),
      template('fresh', T0_MIN - 1),
      template('quiet', T0_MIN - 400, {}, 'svc', T0_MIN - 300),
    ],
    wallClockNs: nsAtMinute(T0_MIN),
    dataClockNs: nsAtMinute(T0_MIN),
    prevDataClockNs: nsAtMinute(T0_MIN - 1),
    maskingEpochStartNs: null,
    coverage: new Map([['svc', coveredRange(T0_MIN - 100, T0_MIN)]]),
    previousSpikes: new Map(),
    silences: new Map([['quiet', { enabled: true, minutes: 60 }]]),
    serviceLogClockNs: new Map([['svc', nsAtMinute(T0_MIN)]]),
    settings: SETTINGS,
  });
  assert.deepEqual(
    r.alerts.map((a) => `${a.kind}:${a.template_id}`),
    ['new:fresh', 'spike:old', 'silence:quiet'],
  );
  assert.equal(r.spikeWindowsSkipped, 0);
});
