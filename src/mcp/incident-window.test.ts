import { test } from 'node:test';
import assert from 'node:assert/strict';
import { incidentSince } from './incident-window.js';

test('a window shorter than an hour is the incident window as asked', () => {
  for (const since of ['30s', '5m', '15m', '59m']) assert.equal(incidentSince(since), since);
});

test('the default hour and longer windows give their last 15 minutes', () => {
  for (const since of [undefined, '1h', '60m', '3600s', '24h', '7d']) assert.equal(incidentSince(since), '15m', String(since));
});

test("a value the API will refuse is left to the API's own check on the other reads", () => {
  assert.equal(incidentSince('0m'), '15m');
});
