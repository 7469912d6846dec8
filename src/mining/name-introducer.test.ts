import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DrainTree, templateText } from './drain.js';
import { maskLine } from './masking.js';
import { introducesName } from './name-introducer.js';

const opts = { simThreshold: 0.5, maxClusters: 5000 };
const toks = (line: string): string[] => maskLine(line, { keepHttpStatus: true }).tokens;

test('a word after `user` or `by` varies like a value before its group is crowded', () => {
  const tree = new DrainTree('svc', opts);
  const closed = tree.add(toks('session closed for user alice'), '').cluster;
  assert.equal(tree.add(toks('session closed for user bob'), '').cluster, closed);
  assert.equal(templateText(closed), 'session closed for user <*>');
  const started = tree.add(toks('job report started by root'), '').cluster;
  assert.equal(tree.add(toks('job report started by deploy'), '').cluster, started);
  assert.equal(templateText(started), 'job report started by <*>');
  // The word before must be the introducer in both; a word elsewhere stays a word.
  assert.notEqual(tree.add(toks('session opened for user alice'), '').cluster, closed);
  assert.notEqual(tree.add(toks('job report stopped by root'), '').cluster, started);
  assert.equal(tree.clusters.length, 4);
});

test('a word after a noun that names a stored or routed thing varies like a value', () => {
  const tree = new DrainTree('svc', opts);
  const removing = tree.add(toks('Removing key metrics'), '').cluster;
  assert.equal(tree.add(toks('Removing key events'), '').cluster, removing);
  assert.equal(templateText(removing), 'Removing key <*>');
  const rate = tree.add(toks('New rate limit for tasks of type main: 964.'), '').cluster;
  assert.equal(tree.add(toks('New rate limit for tasks of type primary: 117.'), '').cluster, rate);
  // The word after a plain word of the message stays a word: two events (words not learned as
  // values above: `metrics` and `events` now vary wherever they stand, value-words.ts).
  assert.notEqual(tree.add(toks('Removing stale entries'), '').cluster, tree.add(toks('Removing stale locks'), '').cluster);
});

test('`user`, `by` and names of stored things introduce a name; `for` and `client` do not', () => {
  for (const word of ['user', 'by', 'key', 'type', 'queue', 'table']) assert.ok(introducesName(word), word);
  // A thing's noun may open a sentence (`Node <*> reported node <*> …`); `User` as written stays a word.
  assert.ok(introducesName('Node'));
  assert.ok(!introducesName('User'));
  assert.ok(!introducesName('for'));
  assert.ok(!introducesName('client'));
  assert.ok(!introducesName(undefined));
});

test('a word after `expected` or `got` is a value compared; not one ending a quote', () => {
  const tree = new DrainTree('svc', opts);
  const role = tree.add(toks('role invalid, expected admin, but got deploy'), '').cluster;
  assert.equal(tree.add(toks('role invalid, expected nobody, but got deploy'), '').cluster, role);
  assert.equal(tree.add(toks('role invalid, expected nobody, but got admin'), '').cluster, role);
  assert.equal(templateText(role), 'role invalid, expected <*>, but got <*>');
  const dict = tree.add(toks('msg="Invalid type for address, expected dict"'), '').cluster;
  assert.notEqual(tree.add(toks('msg="Invalid type for address, expected string"'), '').cluster, dict);
});
