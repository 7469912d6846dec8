import { test } from 'node:test';
import assert from 'node:assert/strict';
import { logDropReason, spanDropReason } from './drop-reason.js';
import { isStorable, LIFETIME_MS, RAW_RETENTION_NS } from './lifetimes.js';

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
  // One rule for both raw tables: the writer stores spans and logs by it, reads filter them by their lifetimes.
  assert.equal(RAW_RETENTION_NS, BigInt(LIFETIME_MS.spans) * 1_000_000n);
  assert.equal(RAW_RETENTION_NS, BigInt(LIFETIME_MS.logs) * 1_000_000n);
});

test('spans and logs the store could never return: all-zero ids and times past Int64 nanoseconds, whoever produced the record', () => {
  const nowNs = 1_800_000_000_000_000_000n;
  const span = {
    traceId: 'ab'.repeat(16),
    spanId: 'cd'.repeat(8),
    parentSpanId: '',
    serviceName: 's',
    name: 'n',
    kind: 'server',
    startNs: nowNs,
    endNs: nowNs + 5n,
    status: 'unset',
    statusMessage: '',
    attrs: [],
    resource: [],
    events: [],
    scopeName: '',
    scopeVersion: '',
  } as const;
  const cases: [string, Partial<typeof span> | Record<string, unknown>, string | undefined][] = [
    ['valid', {}, undefined],
    ['all-zero trace id', { traceId: '0'.repeat(32) }, 'invalid_id'],
    ['all-zero span id', { spanId: '0'.repeat(16) }, 'invalid_id'],
    ['start 2^64-1', { startNs: 2n ** 64n - 1n, endNs: 2n ** 64n - 1n }, 'time_out_of_range'],
    ['end 2^63', { endNs: 2n ** 63n }, 'time_out_of_range'],
    ['start at Int64 max', { startNs: 2n ** 63n - 1n, endNs: 2n ** 63n - 1n }, undefined],
    ['start 0', { startNs: 0n }, 'too_old'],
  ];
  for (const [name, change, expected] of cases) assert.equal(spanDropReason({ ...span, ...change } as never, nowNs), expected, name);
  const log = {
    logId: '1',
    tsNs: nowNs,
    observedTsNs: nowNs,
    traceId: '',
    spanId: '',
    serviceName: 's',
    severityNumber: 9,
    severityText: '',
    body: 'b',
    attrs: [],
    resource: [],
    scopeName: '',
    scopeVersion: '',
  };
  assert.equal(logDropReason(log, nowNs), undefined);
  assert.equal(logDropReason({ ...log, tsNs: 2n ** 64n - 1n }, nowNs), 'time_out_of_range');
  assert.equal(logDropReason({ ...log, observedTsNs: 2n ** 64n - 1n }, nowNs), 'time_out_of_range');
  assert.equal(logDropReason({ ...log, tsNs: nowNs - RAW_RETENTION_NS - 1n }, nowNs), 'too_old');
});
