import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createVersionClock } from './version-clock.js';

test('readings follow the clock, and strictly increase when it stands still or steps back', () => {
  let nowMs = 1_000;
  const versionMs = createVersionClock(() => nowMs);
  const readings = [versionMs(), versionMs(), versionMs()];
  nowMs = 500;
  readings.push(versionMs());
  nowMs = 2_000;
  readings.push(versionMs());
  assert.deepEqual(readings, [1_000, 1_001, 1_002, 1_003, 2_000]);
  assert.equal(createVersionClock(() => nowMs)(), 2_000, 'each clock keeps its own last reading');
});
