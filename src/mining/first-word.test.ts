import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DrainTree, templateText } from './drain.js';
import { evalCorpora } from './eval-corpora.test-support.js';
import { differsInFirstWordOnly, isVerbForm } from './first-word.js';
import { maskLine } from './masking.js';
import { DEFAULT_MINER_OPTIONS, LogMiner } from './miner.js';
import { restoreMiner, snapshotMiner } from './snapshot.js';
import { ValueWords } from './value-words.js';

const opts = { simThreshold: 0.5, maxClusters: 5000 };
const toks = (line: string): string[] => maskLine(line, { keepHttpStatus: true }).tokens;

test('a lowercase first word that varies while the rest of the line stays is a variable', () => {
  const tree = new DrainTree('svc', opts);
  const a = tree.add(toks('alice logged in from 10.0.0.1'), '').cluster;
  assert.equal(tree.add(toks('bob logged in from 10.0.0.2'), '').cluster, a);
  assert.equal(tree.add(toks('carol logged in from 10.0.0.3'), '').cluster, a);
  assert.equal(tree.add(toks('alice logged in from 10.0.0.4'), '').cluster, a);
  assert.equal(templateText(a), '<*> logged in from <*>');
  // Its punctuation stays; a compound name elsewhere in the line varies as well.
  const b = tree.add(toks('ivan: session started on tty 3'), '').cluster;
  assert.equal(tree.add(toks('judy: session started on tty 4'), '').cluster, b);
  assert.equal(templateText(b), '<*>: session started on tty <*>');
  const c = tree.add(toks('gateway reports backend cache-east healthy'), '').cluster;
  assert.equal(tree.add(toks('mailer reports backend db.primary healthy'), '').cluster, c);
  assert.equal(tree.clusters.length, 3);
});

test('capitalized first words, other words elsewhere and short rests keep their templates', () => {
  const tree = new DrainTree('svc', opts);
  const start = tree.add(toks('Starting the main loop now'), '').cluster;
  assert.notEqual(tree.add(toks('Ending the main loop now'), '').cluster, start);
  const up = tree.add(toks('alice reports backend up'), '').cluster;
  assert.notEqual(tree.add(toks('bob reports backend down'), '').cluster, up);
  const short = tree.add(toks('cupsd startup succeeded'), '').cluster;
  assert.notEqual(tree.add(toks('syslogd startup succeeded'), '').cluster, short);
  assert.equal(templateText(start), 'Starting the main loop now');
});

test('differsInFirstWordOnly needs the first word to differ and three equal words in the rest', () => {
  assert.ok(differsInFirstWordOnly(toks('alice logged in from 1.2.3.4'), toks('bob logged in from 1.2.3.5'), 5));
  assert.ok(differsInFirstWordOnly(['<*>', 'logged', 'in', 'from', '<*>'], toks('bob logged in from 1.2.3.5'), 5));
  assert.ok(!differsInFirstWordOnly(toks('alice logged in from 1.2.3.4'), toks('alice logged in from 1.2.3.5'), 5));
  assert.ok(!differsInFirstWordOnly(toks('alice logged out'), toks('bob logged out'), 3));
  assert.ok(!differsInFirstWordOnly(toks('Alice logged in from x'), toks('bob logged in from x'), 5));
  assert.ok(!differsInFirstWordOnly(toks('alice logged in from x'), toks('bob logged in to x'), 5));
});

test('with variable first words, cache on and off and a restore give the same templates and ids', () => {
  const lines = evalCorpora().flatMap((s) => s.content.map((line) => ({ service: s.name, line })));
  const mine = (miner: LogMiner): string[] => lines.map((l) => miner.mine(l.service, l.line).id);
  const on = new LogMiner(DEFAULT_MINER_OPTIONS);
  const off = new LogMiner({ ...DEFAULT_MINER_OPTIONS, useCache: false });
  for (let p = 0; p < 2; p++) assert.deepEqual(mine(on), mine(off));
  assert.deepEqual(on.templates(), off.templates());
  const restored = restoreMiner(snapshotMiner(on), DEFAULT_MINER_OPTIONS);
  assert.deepEqual(mine(restored), mine(on));
  assert.equal(restored.templateCount(), on.templateCount());
});

test('a first word that is a verb form is a word of the message, not a variable', () => {
  assert.equal(isVerbForm('failed'), true);
  assert.equal(isVerbForm('starting:'), true);
  assert.equal(isVerbForm('ivan:'), false);
  assert.equal(isVerbForm('bed'), false);
  const rest = ['to', 'bind', 'the', 'listener', 'socket'];
  assert.equal(differsInFirstWordOnly(['failed', ...rest], ['started', ...rest], 6), false);
  assert.equal(differsInFirstWordOnly(['gateway', ...rest], ['cache', ...rest], 6), true);
});

test("a capitalized word opening a key's quoted message is a word of the message, not a variable first word", () => {
  const rest = ['discovery', 'manager', 'stopped"'];
  assert.ok(!differsInFirstWordOnly(['msg="Scrape', ...rest], ['msg="Notify', ...rest], 4));
  // A lowercase word there may still be a name.
  assert.ok(differsInFirstWordOnly(['msg="alice', ...rest], ['msg="bob', ...rest], 4));
});

test('a first word the service learned as a value needs two equal words in the rest, not three', () => {
  const values = new ValueWords();
  values.learn('orders');
  assert.ok(differsInFirstWordOnly(toks('worker excluded minGzipSize audit.log'), toks('orders excluded minGzipSize session_store'), 4, values));
  assert.ok(!differsInFirstWordOnly(toks('worker excluded minGzipSize audit.log'), toks('orders excluded minGzipSize session_store'), 4));
  // Two equal words beside a first word never seen to vary stay too little evidence.
  assert.ok(!differsInFirstWordOnly(toks('worker excluded minGzipSize audit.log'), toks('billing excluded minGzipSize session_store'), 4, values));
});
