import assert from 'node:assert/strict';
import { test } from 'node:test';
import { span } from './fixtures.test-support.js';
import { errorSummary, slowSummary, unreachableSummary } from './summary.js';

test('summary: the error form names the service, the span and the message', () => {
  const rc = span({ id: 'p', service: 'payments', name: 'charge card', start: 0, end: 1 });
  assert.equal(errorSummary(rc, 'card declined'), 'payments failed in "charge card": card declined');
});

test('summary: a multi-line message is cut to its first line', () => {
  const rc = span({ id: 'p', service: 'payments', name: 'charge', start: 0, end: 1 });
  assert.equal(errorSummary(rc, 'NullPointerException\n  at Foo.bar(Foo.java:1)'), 'payments failed in "charge": NullPointerException');
});

test('summary: a very long message is shortened', () => {
  const rc = span({ id: 'p', start: 0, end: 1 });
  assert.ok(errorSummary(rc, 'x'.repeat(1000)).length < 260);
});

const peers: { name: string; attrs: [string, string | number][]; peer: string }[] = [
  {
    name: 'peer.service',
    attrs: [
      ['peer.service', 'ledger'],
      ['server.address', '10.0.0.7'],
    ],
    peer: 'ledger',
  },
  {
    name: 'server.address with port',
    attrs: [
      ['server.address', 'ledger.internal'],
      ['server.port', 8443],
    ],
    peer: 'ledger.internal:8443',
  },
  { name: 'net.peer.name', attrs: [['net.peer.name', 'ledger-db']], peer: 'ledger-db' },
  { name: 'no peer attribute', attrs: [], peer: 'its peer' },
];

for (const c of peers) {
  test(`summary: the unreachable form uses ${c.name}`, () => {
    const rc = span({ id: 'c', service: 'checkout', name: 'POST', kind: 'client', start: 0, end: 1, attrs: c.attrs });
    assert.equal(unreachableSummary(rc, 'connection refused'), `checkout could not reach ${c.peer} in "POST": connection refused`);
  });
}

test('summary: the slow form names the endpoint, duration against p99 and the span holding the path', () => {
  const holder = span({ id: 'q', service: 'db', name: 'SELECT orders', start: 0, end: 1 });
  const text = slowSummary({
    endpointName: 'GET /orders',
    endpointService: 'shop',
    durationNs: 2_400_000_000n,
    baselineP99Ns: 310_000_000n,
    holder,
    holderSelfNs: 1_900_000_000n,
  });
  assert.equal(text, 'GET /orders (shop) took 2.4 s against a p99 of 310 ms; db "SELECT orders" held 1.9 s of the critical path');
});
