import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isFieldTail, isMidGroup, isOptionalWord } from './optional-run.js';
import { DrainTree, templateText } from './drain.js';
import { maskLine } from './masking.js';

const tokens = (text: string): string[] => text.split(' ');

test('extra fields ending a line after a field are a field tail; words, empty fields or a run before the end are not', () => {
  assert.equal(isFieldTail(tokens('request done status=200 retry=1 cause=timeout'), 3, 5), true);
  assert.equal(isFieldTail(tokens('request done status=200 <*>'), 3, 4), true);
  assert.equal(isFieldTail(tokens('request done status=200 retry=1 then'), 3, 5), false);
  assert.equal(isFieldTail(tokens('request done retry=1'), 2, 3), false);
  assert.equal(isFieldTail(tokens('request done status=200 retry=1 end'), 3, 4), false);
  assert.equal(isFieldTail(tokens('failure; euid=0 ruser= rhost=<*> user=root'), 4, 5), false);
});

test('a balanced group with tokens on both sides is a mid-line group; two groups or one at an end are not', () => {
  assert.equal(isMidGroup(tokens('connected to db-1 (attempt 2) in 35 ms'), 3, 5), true);
  assert.equal(isMidGroup(tokens('image a.jpg resized [cached] in 4 ms'), 3, 4), true);
  assert.equal(isMidGroup(tokens('connected to db-1 (a) (b) in 35 ms'), 3, 5), false);
  assert.equal(isMidGroup(tokens('signal <*> (<*>) received<*>'), 2, 3), false);
  assert.equal(isMidGroup(tokens('connected to db-1 (attempt 2 in 35 ms'), 3, 5), false);
});

function miner(): (text: string) => string {
  const tree = new DrainTree('shop', { simThreshold: 0.5, maxClusters: 100 });
  return (text) => tree.add(maskLine(text, { keepHttpStatus: true }).tokens, text).cluster.id;
}

test('one logging call appending optional fields is one template, under replay too; another message stays apart', () => {
  const tree = new DrainTree('shop', { simThreshold: 0.5, maxClusters: 100 });
  const add = (text: string): string => tree.add(maskLine(text, { keepHttpStatus: true }).tokens, text).cluster.id;
  const lines = [
    'request done method=GET path=/cart status=200 duration_ms=12',
    'request done method=POST path=/checkout status=502 duration_ms=2033 retry=1 cause=timeout',
    'request done method=DELETE path=/cart/items/4 status=204 duration_ms=15 user=bob',
    'request done method=GET path=/orders status=200 duration_ms=8',
    'payment captured [order=10023 amount=19.90]',
    'payment captured [order=10024 amount=5.00 coupon=SPRING]',
  ];
  const ids = lines.map(add);
  assert.equal(new Set(ids.slice(0, 4)).size, 1);
  assert.equal(new Set(ids.slice(4)).size, 1);
  const request = tree.clusters.find((c) => c.id === ids[0])!;
  assert.equal(templateText(request), 'request done method=<*> path=<*> status=<*> duration_ms=<*> <*>');
  const payment = tree.clusters.find((c) => c.id === ids[4])!;
  assert.equal(templateText(payment), 'payment captured [order=<*> amount=<*> <*>]');
  assert.notEqual(add('request failed method=GET path=/cart status=500 duration_ms=3 retry=2'), ids[0]);
  const count = tree.clusters.length;
  for (const line of lines) add(line.replace(/\d+/g, (d) => String(Number(d) + 7)));
  assert.deepEqual(lines.map(add), ids);
  assert.equal(tree.clusters.length, count);
});

test('an optional group in the middle of a line leaves its event one template, either seen first', () => {
  for (const first of ['connected to db-primary in 35 ms', 'connected to db-replica (attempt 2) in 1210 ms']) {
    const add = miner();
    const a = add(first);
    assert.equal(add('connected to db-replica (attempt 3) in 880 ms'), a);
    assert.equal(add('connected to search.internal in 41 ms'), a);
    assert.notEqual(add('disconnected from db-primary (idle) after 35 s'), a);
  }
  const add = miner();
  const a = add('image thumbs/9f2c1.jpg resized [cached] in 4 ms');
  assert.equal(add('image thumbs/77ab0.jpg resized in 120 ms'), a);
});

test('an adverb with two tokens on each side is an optional word; a negation, another word or one near an end is not', () => {
  assert.equal(isOptionalWord(tokens('session <*> abruptly closed by peer'), 2), true);
  assert.equal(isOptionalWord(tokens('lock <*> already released by <*>'), 2), true);
  assert.equal(isOptionalWord(tokens('replica <*> is not up now'), 3), false);
  assert.equal(isOptionalWord(tokens('send watch control response to stream'), 2), false);
  assert.equal(isOptionalWord(tokens('reading only from replica <*>'), 1), false);
  assert.equal(isOptionalWord(tokens('keep <*> only when asked'), 2), false);
  assert.equal(isOptionalWord(tokens('session <*> closed abruptly'), 3), false);
});

test('an optional adverb in the middle of a line leaves its event one template, either seen first; a negation or another word does not', () => {
  for (const first of ['session 4411 closed by peer', 'session 4412 abruptly closed by peer']) {
    const add = miner();
    const a = add(first);
    assert.equal(add('session 4413 unexpectedly closed by peer'), a);
    assert.equal(add('session 4414 closed by peer'), a);
  }
  const add = miner();
  const up = add('replica db-2 is up and serving');
  assert.notEqual(add('replica db-3 is not up and serving'), up);
  const watch = add('failed to send watch response to stream');
  assert.notEqual(add('failed to send watch control response to stream'), watch);
});

test('an article or an auxiliary with two tokens on each side is an optional word; a negation or a preposition is not', () => {
  assert.equal(isOptionalWord(tokens('evicted entry <*> from the cache after <*> s'), 4), true);
  assert.equal(isOptionalWord(tokens('parcel <*> was handed to courier <*>'), 2), true);
  assert.equal(isOptionalWord(tokens('parcel <*> not handed to courier <*>'), 2), false);
  assert.equal(isOptionalWord(tokens('copied <*> to the archive'), 2), false);
  assert.equal(isOptionalWord(tokens('loaded the <*> rules from <*>'), 1), false);
});

test('an optional function word in the middle of a line leaves its event one template, either seen first, and is learned as no value', () => {
  for (const first of ['evicted entry 4411 from the cache after 30 s', 'evicted entry 4412 from cache after 12 s']) {
    const add = miner();
    const a = add(first);
    assert.equal(add('evicted entry 4413 from the cache after 5 s'), a);
    assert.equal(add('evicted entry 4414 from cache after 8 s'), a);
    assert.equal(add('evicted entry 4415 from the cache after 9 s'), a);
  }
  const add = miner();
  const handed = add('parcel 552 handed to courier 31');
  assert.equal(add('parcel 553 was handed to courier 11'), handed);
  // `was` joined as an optional word, not as a value: `not` in its place is another event.
  const not = add('parcel 554 not handed to courier 12');
  assert.notEqual(not, handed);
  assert.equal(add('parcel 555 was handed to courier 31'), handed);
  assert.equal(add('parcel 556 not handed to courier 40'), not);
});
