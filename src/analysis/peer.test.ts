import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AttrPair } from '../model/signals.js';
import { span } from './fixtures.test-support.js';
import { peerOf } from './peer.js';

const peerOfAttrs = (attrs: AttrPair[]) => peerOf(span({ id: 'c', service: 'shop', name: 'call', kind: 'client', start: 0, end: 1, attrs }));

test('the peer is named by the declared service, then the database, then the address, then the URL host', () => {
  const all: AttrPair[] = [
    ['http.url', 'https://user@api.example.com:8443/x'],
    ['server.address', ' pricing.svc '],
    ['db.name', 'orders'],
    ['db.system', 'postgresql'],
    ['peer.service', 'payment'],
  ];
  assert.equal(peerOfAttrs(all), 'payment');
  assert.equal(peerOfAttrs(all.slice(0, 4)), 'postgresql:orders');
  assert.equal(peerOfAttrs([['db.system.name', 'redis']]), 'redis', 'a database without a name is the system');
  assert.equal(
    peerOfAttrs([
      ['db.system.name', 'mysql'],
      ['db.system', 'postgresql'],
      ['db.name', 'a'],
      ['db.namespace', 'b'],
    ]),
    'mysql:b',
    'current names before older ones',
  );
  assert.equal(peerOfAttrs(all.slice(0, 2)), 'pricing.svc', 'trimmed');
  assert.equal(peerOfAttrs(all.slice(0, 1)), 'api.example.com');
  assert.equal(
    peerOfAttrs([
      ['url.full', 'http://[::1]:80/'],
      ['http.url', 'http://other/'],
    ]),
    '[::1]',
  );
  assert.equal(
    peerOfAttrs([
      ['url.full', 'not a url'],
      ['http.url', 'http://other/'],
    ]),
    'other',
    'a URL without a host gives way',
  );
  assert.equal(peerOfAttrs([]), '');
  assert.equal(peerOfAttrs([['other', 'x']]), '');
});

test('an attribute given twice counts with its last value; values that are not text, or blank, count as absent', () => {
  assert.equal(
    peerOfAttrs([
      ['peer.service', 'first'],
      ['peer.service', 'last'],
    ]),
    'last',
  );
  assert.equal(
    peerOfAttrs([
      ['peer.service', 'first'],
      ['peer.service', 7],
    ]),
    '',
    'the last value is not text',
  );
  assert.equal(
    peerOfAttrs([
      ['peer.service', '  '],
      ['rpc.service', 'Pricing'],
    ]),
    'Pricing',
  );
  assert.equal(
    peerOfAttrs([
      ['peer.service', true],
      ['db.system', ['a']],
      ['net.peer.name', 'cache'],
    ]),
    'cache',
  );
});

test('a span read after another does not see the first span’s attributes', () => {
  assert.equal(peerOfAttrs([['peer.service', 'payment']]), 'payment');
  assert.equal(peerOfAttrs([['db.system', 'redis']]), 'redis');
  assert.equal(peerOfAttrs([['net.sock.peer.name', 'n1']]), 'n1');
  assert.equal(peerOfAttrs([['messaging.destination.name', 'orders']]), 'orders');
});
