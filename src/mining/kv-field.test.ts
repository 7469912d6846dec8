import { test } from 'node:test';
import assert from 'node:assert/strict';
import { differsInKeyValue, inKeyedQuote } from './kv-field.js';
import { DrainTree } from './drain.js';
import { maskLine } from './masking.js';

test('two values after one shared key differ as values', () => {
  assert.equal(differsInKeyValue('ulid=static', 'ulid=metrics'), true);
  assert.equal(differsInKeyValue('tags=orders', 'tags=events'), true);
  assert.equal(differsInKeyValue('first_seen=a', 'first_seen=b'), true);
});

test('different keys, a missing value, quoted values and tokens without a key are not one field', () => {
  assert.equal(differsInKeyValue('ulid=static', 'tags=static'), false);
  assert.equal(differsInKeyValue('ulid=', 'ulid=metrics'), false);
  assert.equal(differsInKeyValue('err="EOF"', 'err="closed"'), false);
  assert.equal(differsInKeyValue('started', 'stopped'), false);
  assert.equal(differsInKeyValue('=a', '=b'), false);
  assert.equal(differsInKeyValue('a b=c', 'a b=d'), false);
});

test('the keys that carry the message, its level or a login account keep their values as words', () => {
  assert.equal(differsInKeyValue('msg=QueueManager.start', 'msg=QueueManager.stop'), false);
  assert.equal(differsInKeyValue('level=info', 'level=error'), false);
  assert.equal(differsInKeyValue('user=root', 'user=guest'), false);
});

test('lines of one event differing in a word value of a key=value tail join one template; another message stays apart', () => {
  const tree = new DrainTree('prometheus', { simThreshold: 0.5, maxClusters: 100 });
  const add = (text: string): string => tree.add(maskLine(text, { keepHttpStatus: true }).tokens, text).cluster.id;
  const a = add('msg="Found healthy block" mint=2 maxt=3 ulid=inventory');
  const b = add('msg="Found healthy block" mint=599245 maxt=428097 ulid=metrics');
  const c = add('msg="Found healthy block" mint=7 maxt=9 ulid=static');
  assert.equal(b, a);
  assert.equal(c, a);
  const other = add('msg="Found broken block" mint=7 maxt=9 ulid=static');
  assert.notEqual(other, a);
  // Replaying changes nothing.
  assert.equal(add('msg="Found healthy block" mint=2 maxt=3 ulid=inventory'), a);
  assert.equal(tree.clusters.length, 2);
});

test("the words of a quoted value of several words after a shared key lie in a keyed quote; a message key's quotes, or a quote already closed, do not", () => {
  const tokens = (text: string): string[] => text.split(' ');
  const a = tokens('msg="compaction failed" err="broken pipe" id=1');
  const b = tokens('msg="compaction failed" err="connection refused" id=1');
  assert.equal(inKeyedQuote(a, b, 2), true); // err="connection
  assert.equal(inKeyedQuote(a, b, 3), true); // refused"
  assert.equal(inKeyedQuote(a, b, 4), false); // id=1, after the quote
  assert.equal(inKeyedQuote(a, b, 1), false); // failed", in msg's quotes
  const c = tokens('msg="Scrape discovery manager stopped"');
  const d = tokens('msg="Notify discovery manager stopped"');
  assert.equal(inKeyedQuote(c, d, 0), false);
  assert.equal(inKeyedQuote(tokens('err="EOF" next word'), tokens('err="closed" other word'), 2), false);
  assert.equal(inKeyedQuote(tokens('error="a b"'), tokens('reason="c d"'), 1), false);
});

test('lines of one event with error texts of one length after err= join one template', () => {
  const tree = new DrainTree('prometheus', { simThreshold: 0.5, maxClusters: 100 });
  const add = (text: string): string => tree.add(maskLine(text, { keepHttpStatus: true }).tokens, text).cluster.id;
  const a = add('msg="compaction failed" err="broken pipe"');
  assert.equal(add('msg="compaction failed" err="connection refused"'), a);
  assert.notEqual(add('msg="compaction started" err="broken pipe"'), a);
});
