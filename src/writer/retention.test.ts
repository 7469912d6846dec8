import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isStorable, RAW_RETENTION_NS } from './retention.js';

test('raw items: 0 and older than 3 days are not storable; the boundary is kept', () => {
  const nowNs = 1_800_000_000_000_000_000n;
  const cases: [string, bigint, boolean][] = [
    ['zero', 0n, false],
    ['just now', nowNs, true],
    ['in the future', nowNs + 60_000_000_000n, true],
    ['exactly 3 days', nowNs - RAW_RETENTION_NS, true],
    ['3 days and 1 ns', nowNs - RAW_RETENTION_NS - 1n, false],
    ['4 days', nowNs - (RAW_RETENTION_NS * 4n) / 3n, false],
  ];
  for (const [name, tsNs, expected] of cases) assert.equal(isStorable(tsNs, nowNs), expected, name);
});
