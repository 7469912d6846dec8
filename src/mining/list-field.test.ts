import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isListLabel, isListValue, joinListValues } from './list-field.js';
import { DrainTree } from './drain.js';
import { maskLine } from './masking.js';

const line = 'client sent empty header, client: <*>, server: _, request: "GET / HTTP/1.1", host: "<*>"'.split(' ');

test('a label after a token ending in a comma labels a field of a list', () => {
  assert.equal(isListLabel(line, 4), true); // client:
  assert.equal(isListLabel(line, 6), true); // server:
  assert.equal(isListLabel(line, 1), false);
  assert.equal(isListLabel('failed: Connection reset'.split(' '), 0), false);
});

test('the tokens after a list label, up to the end of the field, are its value', () => {
  assert.equal(isListValue(line, 7), true); // _,
  for (const i of [9, 10, 11]) assert.equal(isListValue(line, i), true, String(i)); // "GET / HTTP/1.1",
  assert.equal(isListValue(line, 2), false); // empty
  assert.equal(isListValue(line, 6), false); // server: is a label, after the end of a field
  // A value ends with its field's comma: a word after it is no value without a label.
  assert.equal(isListValue('error: x, then more words here'.split(' '), 3), false);
});

test('lines of one event that differ only in the values of a field list join one template, whatever their server and method, also in a crowded leaf', () => {
  const tree = new DrainTree('nginx', { simThreshold: 0.5, maxClusters: 100 });
  const add = (text: string): string => tree.add(maskLine(text, { keepHttpStatus: true }).tokens, text).cluster.id;
  const events = [
    'client sent empty :method header,',
    'client sent no :path header,',
    'client sent duplicate :scheme header,',
    'client sent invalid host header,',
    'client sent unknown frame type,',
  ];
  const ids = new Map<string, Set<string>>();
  const servers = ['_', 'example.com', 'static.example.net'];
  const methods = ['GET', 'POST', 'PUT'];
  for (let round = 0; round < 3; round++)
    for (const [k, message] of events.entries()) {
      const id = add(
        `${message} client: 10.0.${round}.${k}, server: ${servers[(round + k) % 3]}, request: "${methods[(round * 2 + k) % 3]} /index HTTP/1.1", host: "example.com"`,
      );
      ids.set(message, (ids.get(message) ?? new Set()).add(id));
    }
  // Five events of one length crowd their leaf, where words may generalize (drain.ts): some events
  // may merge, but no event's lines split over templates for their fields' values.
  for (const [message, set] of ids) assert.equal(set.size, 1, message);
});

test("a list field's value of several tokens becomes one value, keeping its quotes and the field's comma", () => {
  const mask = (text: string): readonly string[] => joinListValues(maskLine(text, { keepHttpStatus: true }).tokens);
  const word = mask('client sent too large header, client: 10.0.0.1, server: _, request: "GET /healthz HTTP/1.1", host: "example.com"');
  const path = mask('client sent too large header, client: 10.0.0.2, server: _, request: "POST /static/app.js HTTP/1.1", host: "example.com"');
  // A path the masker takes whole made the second line a token shorter: now both have one value there.
  assert.deepEqual(word, path);
  assert.equal(word.join(' '), 'client sent too large header, client: <*>, server: _, request: "<*>", host: "example.com"');
  // The last field of a line ends with it.
  assert.equal(joinListValues('failed, reason: connection refused by peer'.split(' ')).join(' '), 'failed, reason: <*>');
  // A value longer than a field's value can be is left as it is, and so are lines with no list.
  const long = 'failed, reason: a b c d e f'.split(' ');
  assert.equal(joinListValues(long), long);
  const plain = 'connection refused by peer'.split(' ');
  assert.equal(joinListValues(plain), plain);
  // Joining twice changes nothing (a stored template restores as it was made).
  assert.deepEqual(joinListValues(word), word);
});

test('lines of one event whose field values differ in length join one template', () => {
  const tree = new DrainTree('nginx', { simThreshold: 0.5, maxClusters: 100 });
  const add = (text: string): string => tree.add(maskLine(text, { keepHttpStatus: true }).tokens, text).cluster.id;
  const a = add('client canceled stream 1, client: 10.0.0.1, server: example.com, request: "GET /index.html HTTP/1.1", host: "example.com"');
  const b = add('client canceled stream 5, client: 10.0.0.2, server: _, request: "POST /static/app.js HTTP/1.1", host: "example.com"');
  assert.equal(a, b);
  assert.equal(tree.clusters[0]!.tokens.join(' '), 'client canceled stream <*>, client: <*>, server: <*>, request: "<*>", host: "example.com"');
});

test('a template stored with a field value of several tokens restores in the joined form, keeping its id', () => {
  const tree = new DrainTree('nginx', { simThreshold: 0.5, maxClusters: 100 });
  const old = 'client canceled stream <*>, client: <*>, server: _, request: "GET /healthz <*>", host: "example.com"'.split(' ');
  const restored = tree.restoreCluster(old, [...old], '42');
  assert.equal(restored.tokens.join(' '), 'client canceled stream <*>, client: <*>, server: _, request: "<*>", host: "example.com"');
  const line = 'client canceled stream 3, client: 10.0.0.9, server: _, request: "POST /static/app.js HTTP/1.1", host: "example.com"';
  assert.equal(tree.add(maskLine(line, { keepHttpStatus: true }).tokens, line).cluster.id, '42');
});
