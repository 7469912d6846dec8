import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DrainTree, templateText } from './drain.js';
import { isListFieldValue } from './field-list.js';
import { maskLine } from './masking.js';

const opts = { simThreshold: 0.5, maxClusters: 5000 };
const toks = (line: string): string[] => maskLine(line, { keepHttpStatus: true }).tokens;

test('the value of a `key value,` field in a comma-separated list varies like a value', () => {
  const tree = new DrainTree('svc', opts);
  const a = tree.add(toks('login 7, role reader, logged in'), '').cluster;
  assert.equal(tree.add(toks('login 8, role owner, logged in'), '').cluster, a);
  assert.equal(templateText(a), 'login <*>, role <*>, logged in');
  // The word after the list is still a word of the message.
  assert.notEqual(tree.add(toks('login 9, role owner, logged out'), '').cluster, a);
  // In prose (no field before), a word before a comma stays a word.
  const down = tree.add(toks('eth link is down, retrying'), '').cluster;
  assert.notEqual(tree.add(toks('eth link is up, retrying'), '').cluster, down);
});

test('isListFieldValue needs a field before, the same lowercase key and both values with a comma', () => {
  const line = ['user', '<*>,', 'role', 'reader,', 'ok'];
  assert.ok(isListFieldValue(['user', '<*>,', 'role', 'owner,', 'ok'], line, 3));
  assert.ok(!isListFieldValue(['user', '<*>,', 'Role', 'owner,', 'ok'], ['user', '<*>,', 'Role', 'reader,', 'ok'], 3));
  assert.ok(!isListFieldValue(['user', '<*>', 'role', 'owner,', 'ok'], ['user', '<*>', 'role', 'reader,', 'ok'], 3));
  assert.ok(!isListFieldValue(['user', '<*>,', 'role', 'owner', 'ok'], line, 3));
  assert.ok(!isListFieldValue(line, line, 1));
});
