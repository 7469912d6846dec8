import { test } from 'node:test';
import assert from 'node:assert/strict';
import { differsInQuotedField, differsInValueSlot, followsLabel, followsPreposition } from './value-slot.js';
import { LogMiner, DEFAULT_MINER_OPTIONS } from './miner.js';
import { templateText } from './drain.js';

test('a word in the same quotes or brackets is in a value slot', () => {
  assert.equal(differsInValueSlot("'worker'", "'main'"), true);
  assert.equal(differsInValueSlot('[orders]', '[default]'), true);
  assert.equal(differsInValueSlot('"alpha"', '"beta"'), true);
  // The first word of a quoted value of several words.
  assert.equal(differsInValueSlot('"GET', '"POST'), true);
  // Different wrappers, or none, are words of the message; so is a word that only ends a quote.
  assert.equal(differsInValueSlot("'worker'", '"main"'), false);
  assert.equal(differsInValueSlot('enabled"', 'disabled"'), false);
  assert.equal(differsInValueSlot('opened', 'closed'), false);
  assert.equal(differsInValueSlot('[a', '[b'), false);
  assert.equal(differsInValueSlot('[]', '[]'), false);
  // A word in parentheses is as often a remark of the message: `(usable)` and `(reserved)` differ.
  assert.equal(differsInValueSlot('(usable)', '(reserved)'), false);
});

test('a quoted word as the value of the same key is in a value slot', () => {
  assert.equal(differsInQuotedField('Subject="users"', 'Subject="inventory"'), true);
  assert.equal(differsInQuotedField("name='a',", "name='bb',"), true);
  assert.equal(differsInQuotedField('type:"x"', 'type:"y"'), true);
  // Another key, other closing punctuation, an unquoted word, or a quote opening a sentence are not.
  assert.equal(differsInQuotedField('Subject="users"', 'Topic="users2"'), false);
  assert.equal(differsInQuotedField('Subject="users"', 'Subject="inventory",'), false);
  assert.equal(differsInQuotedField('Subject=users', 'Subject=inventory'), false);
  assert.equal(differsInQuotedField('msg="starting', 'msg="stopping'), false);
  assert.equal(differsInQuotedField('k="a"b"', 'k="c"b"'), false);
});

test('a word after a shared label ending in a colon follows that label', () => {
  const template = ['searching', 'authorities', 'for:', 'primary'];
  assert.equal(followsLabel(template, ['searching', 'authorities', 'for:', 'metrics'], 3), true);
  assert.equal(followsLabel(template, ['searching', 'authorities', 'in', 'metrics'], 3), false);
  assert.equal(followsLabel(['Shutter:', 'false'], ['Shutter:', 'running'], 1), true);
  assert.equal(followsLabel(['a', ':', 'x'], ['a', ':', 'y'], 2), false);
  assert.equal(followsLabel(template, template, 0), false);
});

test('quoted names and labelled last words keep one template per event from their first values', () => {
  const miner = new LogMiner(DEFAULT_MINER_OPTIONS);
  const lines = [
    "register tcp: 'worker'",
    "register tcp: 'main'",
    'The resource path [default] has been normalized to [orders] which is not valid',
    'The resource path [inventory] has been normalized to [worker] which is not valid',
    'searching authorities for: primary',
    'searching authorities for: metrics',
  ];
  const [tcp1, tcp2, path1, path2, search1, search2] = lines.map((l) => miner.mine('svc', l));
  assert.ok(tcp1 && tcp2 && path1 && path2 && search1 && search2);
  assert.equal(tcp1.id, tcp2.id);
  assert.equal(path1.id, path2.id);
  assert.equal(search1.id, search2.id);
  assert.equal(templateText(tcp2), "register tcp: '<*>'");
  assert.equal(templateText(search2), 'searching authorities for: <*>');
  // Words of the message still tell events apart: the label's word is not the last word here.
  const opened = miner.mine('svc', 'state: opened by admin');
  const closed = miner.mine('svc', 'state: closed by admin');
  assert.notEqual(opened.id, closed.id);
});

test('the last word after a preposition the two share is its object, a value', () => {
  const miner = new LogMiner(DEFAULT_MINER_OPTIONS);
  const signing = ['Signing 394 because orders', 'Signing 0 because events', 'Signing 948 because users'].map((line) => miner.mine('svc', line).id);
  assert.equal(new Set(signing).size, 1);
  assert.equal(templateText(miner.mine('svc', 'Signing 1 because orders')), 'Signing <*> because <*>');
  // Not after `for` or `to`: `failed to start` and `failed to stop` are two events.
  const verbs = ['Unit 3 failed to start', 'Unit 4 failed to stop'].map((line) => miner.mine('svc', line).id);
  assert.notEqual(verbs[0], verbs[1]);
  assert.equal(followsPreposition(['a', 'from', 'x'], ['a', 'from', 'y'], 2), true);
  assert.equal(followsPreposition(['a', 'for', 'x'], ['a', 'for', 'y'], 2), false);
  assert.equal(followsPreposition(['a', 'from', 'x'], ['a', 'to', 'y'], 2), false);
});
