import { test } from 'node:test';
import assert from 'node:assert/strict';
import { callStats, minuteOfNs, uncoveredNs } from './call-stats.js';
import { isFailing } from './failure.js';
import { atMs, span, type SpanSpec } from './fixtures.test-support.js';
import { buildSpanTree } from './tree.js';

function statsOf(specs: SpanSpec[]) {
  const tree = buildSpanTree(specs.map(span));
  return callStats(
    tree,
    tree.spans.map((s) => isFailing(s, undefined)),
  );
}

test('a client span with its callee answering: the wire is the client time the callee does not cover, not the caller own time', () => {
  const stats = statsOf([
    { id: 'root', service: 'gateway', name: 'GET /*', kind: 'server', start: 0, end: 100 },
    { id: 'c1', parent: 'root', service: 'gateway', name: 'GET /price', kind: 'client', start: 10, end: 90, attrs: [['server.address', 'pricing.svc']] },
    { id: 's1', parent: 'c1', service: 'pricing', name: 'GetPrice', kind: 'server', start: 30, end: 70 },
  ]);
  const gateway = stats.ops.find((o) => o.service === 'gateway');
  assert.equal(gateway?.selfNsSum, 20_000_000n, 'the gateway owns 100 ms minus the 80 ms call');
  assert.equal(gateway?.durationNsSum, 100_000_000n);
  assert.equal(stats.ops.find((o) => o.service === 'pricing')?.selfNsSum, 40_000_000n);
  assert.deepEqual(stats.calls, [
    {
      minuteS: minuteOfNs(atMs(10)),
      caller: 'gateway',
      callee: 'pricing',
      operation: 'GET /price',
      peer: 'pricing.svc',
      calls: 1,
      errors: 0,
      originErrors: 0,
      clientNsSum: 80_000_000n,
      wireNsSum: 40_000_000n,
      wireNsMax: 40_000_000n,
      servedCalls: 1,
      serverNsSum: 40_000_000n,
    },
  ]);
});

test('a call no span answers is put on the peer its attributes name, and a refused call is where its failure starts', () => {
  const stats = statsOf([
    { id: 'root', service: 'orders', name: 'POST /order', kind: 'server', status: 'error', start: 0, end: 50 },
    {
      id: 'db',
      parent: 'root',
      service: 'orders',
      name: 'INSERT orders',
      kind: 'client',
      start: 5,
      end: 25,
      attrs: [
        ['db.system', 'postgresql'],
        ['db.name', 'orders'],
      ],
    },
    {
      id: 'pay',
      parent: 'root',
      service: 'orders',
      name: 'POST /charge',
      kind: 'client',
      status: 'error',
      message: 'connect ECONNREFUSED',
      start: 30,
      end: 31,
      attrs: [['peer.service', 'payment']],
    },
  ]);
  const db = stats.calls.find((c) => c.operation === 'INSERT orders');
  assert.equal(db?.callee, 'postgresql:orders');
  assert.equal(db?.wireNsSum, 20_000_000n, 'a peer without spans: the whole call is wire');
  assert.equal(db?.servedCalls, 0);
  const pay = stats.calls.find((c) => c.operation === 'POST /charge');
  assert.equal(pay?.callee, 'payment');
  assert.equal(pay?.originErrors, 1);
  const root = stats.ops.find((o) => o.operation === 'POST /order');
  assert.equal(root?.errors, 1);
  assert.equal(root?.originErrors, 0, 'the order failed because the call failed: not where it started');
});

test('an error passed up from a callee starts in the callee only', () => {
  const stats = statsOf([
    { id: 'root', service: 'gateway', name: 'GET /*', kind: 'server', status: 'error', start: 0, end: 100 },
    { id: 'c', parent: 'root', service: 'gateway', name: 'call', kind: 'client', status: 'error', start: 10, end: 90 },
    { id: 's', parent: 'c', service: 'pricing', name: 'GetPrice', kind: 'server', status: 'error', start: 20, end: 80 },
  ]);
  assert.equal(stats.ops.find((o) => o.service === 'pricing')?.originErrors, 1);
  assert.equal(stats.ops.find((o) => o.service === 'gateway')?.originErrors, 0);
  assert.equal(stats.calls[0]?.originErrors, 0);
  assert.equal(stats.calls[0]?.errors, 1);
});

test('parallel children are covered once, and a child sticking out of its parent only where it overlaps', () => {
  const children = [
    { startNs: atMs(10), endNs: atMs(60) },
    { startNs: atMs(20), endNs: atMs(50) },
    { startNs: atMs(90), endNs: atMs(130) },
  ];
  assert.equal(uncoveredNs(atMs(0), atMs(100), children), 40_000_000n);
  assert.equal(uncoveredNs(atMs(0), atMs(100), []), 100_000_000n);
});

test('spans are counted in the minute they start', () => {
  assert.equal(minuteOfNs(60_000_000_000n * 5n + 1n), 300);
  assert.equal(minuteOfNs(60_000_000_000n * 5n - 1n), 240);
  assert.equal(minuteOfNs(0n), 0);
  assert.equal(minuteOfNs(1_765_000_000_123_456_789n), 1_764_999_960);
  // Before 1970: still the minute's start, below the time.
  assert.equal(minuteOfNs(-1n), -60);
  assert.equal(minuteOfNs(-60_000_000_000n), -60);
  assert.equal(minuteOfNs(-60_000_000_001n), -120);
});
