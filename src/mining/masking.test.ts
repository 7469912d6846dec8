import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_TOKENS, WILDCARD, fingerprintLine, isPinnedToken, maskLine } from './masking.js';

const KEEP = { keepHttpStatus: true };
const DROP = { keepHttpStatus: false };
const masked = (line: string, opts = KEEP): string => maskLine(line, opts).tokens.join(' ');

test('numbers, decimals, negatives and numbers with size units become wildcards', () => {
  // Duration words stay: they read like the line and rarely change within one event.
  assert.equal(masked('took 12 ms'), 'took <*> ms');
  assert.equal(masked('took ms'), 'took ms');
  assert.equal(masked('ratio 0.75 delta -3 size 12ms'), 'ratio <*> delta <*> size <*>');
  assert.equal(masked('estimated size 2.1 KB, free 3 GB'), 'estimated size <*>, free <*>');
});

test('UUIDs and hex runs with and without 0x', () => {
  assert.equal(masked('request 123e4567-e89b-12d3-a456-426614174000 done'), 'request <*> done');
  assert.equal(masked('addr 0x7fed806eb5d'), 'addr <*>');
  assert.equal(masked('id deadbeefcafe'), 'id <*>');
  assert.equal(masked('commit 3fa2b9c'), 'commit <*>');
  // Short hex-looking words without digits stay words.
  assert.equal(masked('added a bead'), 'added a bead');
});

test('IPs and ports are numbers; delimiters stay in the template around values', () => {
  // host:port is one value; a name's delimiters stay.
  assert.equal(masked('from 10.251.73.220:50010 user=42 (HWID=1973)'), 'from <*> user=<*> (HWID=<*>)');
  assert.equal(masked('pid (42) at [7]'), 'pid (<*>) at [<*>]');
});

test('a list of values is one value, whatever its length and separators', () => {
  assert.equal(masked('shards 1, 2, 3 after 5'), 'shards <*> after <*>');
  assert.equal(masked('shards 1 after 5'), 'shards <*> after <*>');
  assert.equal(masked('ids [1, 2, 3] ok'), 'ids [<*>] ok');
  assert.equal(masked('ids [4] ok'), 'ids [<*>] ok');
  // A bracketed value after a value is not part of a list.
  assert.equal(masked('from 10.0.0.1 (10.0.0.1) at 5'), 'from <*> (<*>) at <*>');
  for (const line of ['shards 1, 2, 3 after 5', 'ids [1, 2, 3] ok', 'from 10.0.0.1 (10.0.0.1) at 5']) {
    assert.equal(fingerprintLine(line, KEEP), maskLine(line, KEEP).fingerprint);
  }
  assert.equal(fingerprintLine('ids [1, 2, 3] ok', KEEP), fingerprintLine('ids [4] ok', KEEP));
  assert.notEqual(fingerprintLine('ids [1] ok', KEEP), fingerprintLine('ids (1) ok', KEEP));
});

test('a name from code with a digit inside stays, with the same fingerprint either way', () => {
  assert.equal(masked('jk2_init() Found child 6725 in slot 10'), 'jk2_init() Found child <*> in slot <*>');
  assert.equal(masked('utf8_decode failed, sha256_sum mismatch'), 'utf8_decode failed, sha256_sum mismatch');
  // Values end in digits, are hex, or start with fewer than two letters: they stay values.
  for (const value of ['jk2_3', 'ab12_cd', 'x2_init', 'node7', 'R02_ok', 'jk2_i']) assert.equal(masked(`id ${value} ok`), 'id <*> ok', value);
  // The whole name is hashed, not only up to its first digit.
  assert.notEqual(fingerprintLine('at jk2_init()', KEEP), fingerprintLine('at jk2_exit()', KEEP));
  assert.notEqual(fingerprintLine('at jk2_init()', KEEP), fingerprintLine('at jk3_init()', KEEP));
  for (const line of ['jk2_init() Found child 6725', 'call utf8_decode now']) assert.equal(fingerprintLine(line, KEEP), maskLine(line, KEEP).fingerprint);
});

test('paths, host names, date names are values', () => {
  assert.equal(masked('open /var/log/messages now'), 'open <*> now');
  assert.equal(masked('rhost=troi.bluesky-technologies.com'), 'rhost=<*>');
  assert.equal(masked('at Fri Jun 17 20:10:40 2005'), 'at <*>');
  // A class name with capitals is not a host name.
  assert.equal(masked('in org.apache.Main'), 'in org.apache.Main');
});

test('a value keeps the name it is joined to and the slashes before a number', () => {
  assert.equal(masked('block blk_-4217 on node-17 dumped core.3051'), 'block blk_<*> on node-<*> dumped core.<*>');
  assert.equal(masked('lease DFSClient_NONMAPREDUCE_-9_1 from /10.0.0.1:50010'), 'lease DFSClient_NONMAPREDUCE_<*> from /<*>:<*>');
  // Hex names and paths stay whole values.
  assert.equal(masked('id deadbeef_12 at /var/log/a2'), 'id <*> at <*>');
  // A named value is not a bare one: it does not join a run of wildcards.
  assert.equal(masked('ids 1 rdd_2 3'), 'ids <*> rdd_<*> <*>');
  for (const line of ['block blk_-4217 on node-17', 'from /10.0.0.1:50010']) assert.equal(fingerprintLine(line, KEEP), maskLine(line, KEEP).fingerprint);
  assert.equal(fingerprintLine('x blk_1', KEEP), fingerprintLine('x blk_22', KEEP));
  assert.notEqual(fingerprintLine('x blk_1', KEEP), fingerprintLine('x rdd_1', KEEP));
  assert.notEqual(fingerprintLine('x blk_1', KEEP), fingerprintLine('x 1', KEEP));
});

test('a run of wildcard tokens collapses into one', () => {
  assert.equal(masked('delete 1 2 3 4 done'), 'delete <*> done');
  assert.equal(maskLine('delete 1 2 done', KEEP).fingerprint, maskLine('delete 7 done', KEEP).fingerprint);
});

test('HTTP status codes after an HTTP version token are kept with keep_http_status', () => {
  const line = '10.0.0.1 - - "GET /a/b HTTP/1.1" 404 512';
  assert.equal(masked(line), '<*> - - "GET <*> <*>" 404 <*>');
  assert.equal(masked('"POST /x/y HTTP/1.0" 200 12'), '"POST <*> <*>" 200 <*>');
  assert.equal(masked('proto HTTP/1.0 503'), 'proto <*> 503');
  assert.ok(isPinnedToken('404'));
  assert.ok(!isPinnedToken(WILDCARD));
  // Out of range or not after a version token: masked.
  assert.equal(masked('"GET / HTTP/1.1" 700 1'), '"GET / <*>" <*>');
  assert.equal(masked('returned 404'), 'returned <*>');
  assert.notEqual(fingerprintLine(line, KEEP), fingerprintLine(line.replace(' 404 ', ' 500 '), KEEP));
});

test('status codes are not kept when keep_http_status is false', () => {
  const line = '"GET /a/b HTTP/1.1" 404 512';
  assert.equal(masked(line, DROP), '"GET <*> <*>" <*>');
  assert.equal(fingerprintLine(line, DROP), fingerprintLine(line.replace(' 404 ', ' 500 '), DROP));
});

test('fingerprint equals the fingerprint of the built tokens and ignores values', () => {
  for (const line of ['a b c', 'x=1 y=2', 'GET /a/b HTTP/1.1 200 3', '']) {
    assert.equal(fingerprintLine(line, KEEP), maskLine(line, KEEP).fingerprint);
  }
  assert.equal(fingerprintLine('user 1 logged in', KEEP), fingerprintLine('user 22 logged in', KEEP));
  assert.notEqual(fingerprintLine('user 1 logged in', KEEP), fingerprintLine('user 1 logged out', KEEP));
  assert.notEqual(fingerprintLine('a b', KEEP), fingerprintLine('ab', KEEP));
});

test('lines longer than 64 tokens keep 63 tokens and fold the rest into one wildcard', () => {
  const words = Array.from({ length: 100 }, (_, i) => `w${String.fromCharCode(97 + (i % 26))}x`.replace(/\d/g, ''));
  const line = words.join(' ');
  const { tokens } = maskLine(line, KEEP);
  assert.equal(tokens.length, MAX_TOKENS);
  assert.equal(tokens[MAX_TOKENS - 1], WILDCARD);
  assert.deepEqual(tokens.slice(0, MAX_TOKENS - 1), words.slice(0, MAX_TOKENS - 1));
  // Lines that differ only after the fold share a fingerprint.
  assert.equal(fingerprintLine(line, KEEP), fingerprintLine(`${line} more words here`, KEEP));
  assert.equal(fingerprintLine(line, KEEP), maskLine(line, KEEP).fingerprint);
  // Exactly 64 tokens: nothing folded.
  const exact = words.slice(0, MAX_TOKENS).join(' ');
  assert.deepEqual(maskLine(exact, KEEP).tokens, words.slice(0, MAX_TOKENS));
});
