import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_REMARK_TOKENS, coreLength, isErrorLabel, isLabel, isLabelTail, remarksNest } from './optional-tail.js';
import { maskLine } from './masking.js';
import { DEFAULT_MINER_OPTIONS, LogMiner } from './miner.js';

const split = (s: string): string[] => s.split(' ');

test('the core ends before the trailing bracketed remarks', () => {
  assert.equal(coreLength(split('Connection closed by <*> port <*> [preauth]')), 6);
  assert.equal(coreLength(split('Task <*> failed (attempt <*>) (will retry)')), 3);
  assert.equal(coreLength(split('upload of <*> files done [<*> skipped]')), 5);
  assert.equal(coreLength(split('Task <*> failed')), 3);
});

test('a word ending in a bracket, an unbalanced group or a long run is not a remark', () => {
  assert.equal(coreLength(split('synced to LOCAL(<*>)')), 3);
  assert.equal(coreLength(split('sent to [a] b]')), 4);
  const long = `[${Array.from({ length: MAX_REMARK_TOKENS + 1 }, (_, i) => `w${i}`).join(' ')}]`;
  assert.equal(coreLength(split(`sent error ${long}`)), 2 + MAX_REMARK_TOKENS + 1);
});

test('the core keeps two tokens: a remark never stands for the line', () => {
  assert.equal(coreLength(split('done (ok)')), 2);
  // Taking `(pid <*>)` too would leave one token: it stays in the core.
  assert.equal(coreLength(split('started (pid <*>) (quiet)')), 3);
});

test('remarks nest when one run of remarks starts or ends the other', () => {
  const core = 3;
  assert.ok(remarksNest(split('Task <*> failed'), split('Task <*> failed [preauth]'), core));
  assert.ok(remarksNest(split('Task <*> failed (attempt <*>)'), split('Task <*> failed (attempt <*>) (will retry)'), core));
  assert.ok(remarksNest(split('Task <*> failed (will retry)'), split('Task <*> failed (attempt <*>) (will retry)'), core));
  assert.ok(!remarksNest(split('Task <*> failed (usable)'), split('Task <*> failed (reserved) (x)'), core));
});

test('a labelled tail of up to 5 words after a label ends the core, when no first-token label or field is in the way', () => {
  assert.equal(coreLength(split('failed to resolve hostname <*> to IP: too many open files')), 7);
  assert.equal(coreLength(split('failed to resolve hostname <*> to IP: EOF')), 7);
  assert.equal(coreLength(split('error accepting request from <*>: Connection reset by peer')), 5);
  assert.ok(isLabelTail(split('failed to resolve hostname <*> to IP: EOF'), 7));
  // A first token ending in `:` names the program: its later labels end its own clauses.
  assert.equal(coreLength(split('ciod: LOGIN chdir(<*>) failed: No such file or directory')), 9);
  // Too short a core, fields, a sentence with a value in it, a group before the colon: no tail.
  assert.equal(coreLength(split('DBus support enabled: connected to system bus')), 7);
  assert.equal(coreLength(split('asking for pre-vote: term=<*> from=<*>')), 5);
  assert.equal(coreLength(split('the zone file loaded: <*> with <*> records')), 8);
  assert.equal(coreLength(split('critical input interrupt (unit=<*> bit=<*>): warning for torus')), 8);
  assert.equal(coreLength(split('an error occurred: one two three four five six')), 9);
  // Remarks come first: a line with them has no labelled tail.
  assert.ok(!isLabelTail(split('Task <*> failed: (attempt <*>)'), 3));
});

test('a label is a word or a value before a colon, not a group, a quote, fields or `::`', () => {
  for (const label of ['error:', 'IP:', 'tcp_stream:', '<*>:', 'Route53:']) assert.ok(isLabel(label), label);
  for (const word of ['::', ':', 'A::', '(x):', '[y', '<cfg.main>:', '"x":', 'k=v:', 'error', '[a=b]:', '[a][b]:']) assert.ok(!isLabel(word), word);
  // A name or value in brackets labels what follows as a bare value does.
  for (const label of ['[audit.log]:', '[<*>]:']) assert.ok(isLabel(label), label);
});

test('a parenthesized remark with a value, closed by a word and a colon, labels the tail after it', () => {
  const a = maskLine('Retrying tenant-42 (failed 1097 times): timed out', { keepHttpStatus: true }).tokens;
  assert.equal(coreLength(a), a.length - 2);
  // A remark of words only is a part of the message.
  const b = maskLine('Error moving file /a/b on /c/d (in server root dir main): No such file', { keepHttpStatus: true }).tokens;
  assert.equal(coreLength(b), b.length);
  const miner = new LogMiner(DEFAULT_MINER_OPTIONS);
  const first = miner.mine('s', 'Retrying tenant-42 (failed 1097 times): timed out');
  assert.equal(miner.mine('s', 'Retrying tenant-7 (failed 4742 times): Name or service not known').id, first.id);
});

test("after a program's name, a word label after a clause of 6 tokens labels a tail; a value, a name or a short clause does not", () => {
  const lookup = split('plugin/geoip: Setting up metadata failed due to database lookup error: connection refused');
  assert.equal(coreLength(lookup), lookup.length - 2);
  // A value or a name before the colon, or a short clause: the program's own format.
  assert.equal(coreLength(split('ciod: Error creating node map from file <*>: No child processes')), 11);
  assert.equal(coreLength(split('plugin/file: Notify from <*> for printer.lan: checking transfer')), 8);
  assert.equal(coreLength(split('ciod: LOGIN chdir(<*>) failed: No such file or directory')), 9);
  const miner = new LogMiner(DEFAULT_MINER_OPTIONS);
  const first = miner.mine('s', 'plugin/file: Failed to stop prometheus http server: EOF');
  assert.equal(miner.mine('s', 'plugin/file: Failed to stop prometheus http server: broken pipe').id, first.id);
  assert.equal(miner.mine('s', 'plugin/file: Failed to stop prometheus http server: too many open files').id, first.id);
});

test('a colon standing alone after a word or a value labels a tail, unless several stand in the line', () => {
  assert.equal(coreLength(split('Could not remove <*> : Address already in use')), 5);
  assert.equal(coreLength(split('Could not remove <*> : EOF')), 5);
  // Several lone colons make a layout of fields.
  assert.equal(coreLength(split('Lustre mount FAILED : bglio<*> : block_id : location')), 9);
  const miner = new LogMiner(DEFAULT_MINER_OPTIONS);
  const first = miner.mine('s', 'Could not create directory /var/lib/x : Connection reset by peer');
  assert.equal(miner.mine('s', 'Could not create directory /var/lib/y : No such file or directory').id, first.id);
});

test("a label naming a failure labels an error's text after fewer than 4 tokens, down to the first token", () => {
  assert.ok(isErrorLabel('Error:') && isErrorLabel('failed:') && isErrorLabel('reason:'));
  assert.ok(!isErrorLabel('enabled:') && !isErrorLabel('Error') && !isErrorLabel('errors:'));
  assert.equal(coreLength(split('Error: too many open files')), 1);
  assert.equal(coreLength(split('Dial <*> failed: Connection reset by peer')), 3);
  // A label of the message's own words still needs 4 tokens before it.
  assert.equal(coreLength(split('DBus support enabled: connected to system bus')), 7);
  // A quoted text is one value, whose quotes the template keeps.
  assert.equal(coreLength(split('client login failed: "i/o timeout"')), 5);
  // After a program's name, a short clause keeps its label as part of the program's format.
  assert.equal(coreLength(split('ciod: LOGIN failed: Input/output error')), 5);
  const miner = new LogMiner(DEFAULT_MINER_OPTIONS);
  const unrecoverable = miner.mine('s', 'Unrecoverable error: EOF');
  assert.equal(miner.mine('s', 'Unrecoverable error: context deadline exceeded').id, unrecoverable.id);
  const cleanup = miner.mine('s', 'Process cleanup failed: broken pipe');
  assert.equal(miner.mine('s', 'Process cleanup failed: Permission denied').id, cleanup.id);
  assert.notEqual(cleanup.id, unrecoverable.id);
});

test('in a line opening with an error word, a label after a short word labels an error text; after a longer word it may be a value', () => {
  assert.equal(coreLength(split('Error in timer: Connection reset by peer')), 3);
  assert.equal(coreLength(split('Error downloading worker: Address already in use')), 7);
  // The label holds a value, or the first word names no failure: the message's own format.
  assert.equal(coreLength(split('Error in <*>: Connection reset by peer')), 7);
  assert.equal(coreLength(split('Started in timer: Connection reset by peer')), 7);
});
