import assert from 'node:assert/strict';
import { test } from 'node:test';
import { humanDuration } from './human-duration.js';

const cases: [bigint, string][] = [
  [2_400_000_000n, '2.4 s'],
  [310_000_000n, '310 ms'],
  [12_345_678n, '12.3 ms'],
  [999n, '999 ns'],
  [1_500n, '1.5 µs'],
  [90_000_000_000n, '1.5 min'],
  [7_200_000_000_000n, '2 h'],
  [0n, '0 ns'],
];

for (const [ns, text] of cases) test(`human duration: ${ns} ns is "${text}"`, () => assert.equal(humanDuration(ns), text));
