import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DrainTree } from './drain.js';
import { maskLine } from './masking.js';
import { isPhraseWord } from './phrase.js';

function miner(): (text: string) => string {
  const tree = new DrainTree('svc', { simThreshold: 0.5, maxClusters: 100 });
  return (text) => tree.add(maskLine(text, { keepHttpStatus: true }).tokens, text).cluster.id;
}

test('a plain word is a phrase word; a value, a name, a quote, a group or a field is not', () => {
  for (const word of ['too', 'large', ':method', 'header,']) assert.equal(isPhraseWord(word, null), true, word);
  for (const token of ['<*>', 'cache-east', '"timed', '(reserved)', 'key=x', 'api.internal']) assert.equal(isPhraseWord(token, null), false, token);
});

test('in a crowded group, two adjacent words differing before a shared word are another event', () => {
  const add = miner();
  const messages = [
    'client sent too large header,',
    'client sent empty :method header,',
    'client sent no :path header,',
    'client sent duplicate :scheme header,',
    'client sent unknown pseudo header,',
  ];
  const ids = messages.map((m, k) => add(`${m} client: 10.0.0.${k}, server: _, request: "GET / HTTP/1.1", host: "example.com"`));
  // The group is crowded from the fifth line on; every event keeps its own template.
  for (const [k, m] of messages.entries()) assert.equal(add(`${m} client: 10.0.1.${k}, server: _, request: "GET / HTTP/1.1", host: "example.com"`), ids[k], m);
  assert.equal(new Set(ids).size, messages.length);
});

test('in a crowded group, a value of several words ending the line still varies', () => {
  const add = miner();
  // Four templates of the same first word and length crowd the group.
  for (const other of [
    'can not open the client file for writing',
    'can not bind any listening port in time',
    'can not reach the upstream over its link',
    'can not load a module from the disk',
  ])
    add(other);
  const a = add('can not deregister server socket certificate has expired');
  const b = add('can not deregister server socket Resource temporarily unavailable');
  assert.equal(a, b);
});
