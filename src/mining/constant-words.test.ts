import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CONSTANT_WORD_LINES, isConstantWord, unshowTokens } from './constant-words.js';
import { templateText } from './drain.js';
import { fingerprintLine } from './masking.js';
import { DEFAULT_MINER_OPTIONS, LogMiner } from './miner.js';
import { restoreMiner, snapshotMiner } from './snapshot.js';

const ACCEPTED = [
  'Accepted password for root from 10.0.0.5 port 52214 ssh2',
  'Accepted password for root from 10.0.0.9 port 40022 ssh2',
  'Accepted password for root from 10.0.0.7 port 41822 ssh2',
  'Accepted password for root from 10.0.0.3 port 50112 ssh2',
];

test('a word with a digit that every line of a template holds is shown once enough lines agree', () => {
  assert.equal(CONSTANT_WORD_LINES, 3);
  const miner = new LogMiner();
  const first = miner.mine('sshd', ACCEPTED[0]!);
  assert.equal(templateText(first), 'Accepted password for root from <*> port <*>', 'one line is no evidence');
  miner.mine('sshd', ACCEPTED[1]!);
  assert.equal(templateText(first), 'Accepted password for root from <*> port <*>');
  const third = miner.mine('sshd', ACCEPTED[2]!);
  assert.equal(third, first);
  assert.equal(templateText(first), 'Accepted password for root from <*> port <*> ssh2');
  miner.mine('sshd', ACCEPTED[3]!);
  assert.equal(templateText(first), 'Accepted password for root from <*> port <*> ssh2');
  // Other template: `utf8` among values that vary.
  for (let i = 0; i < 4; i++) miner.mine('sshd', `decoding ${i * 7} bytes of session ${i + 100} as utf8`);
  assert.deepEqual(
    miner.templates().map((t) => t.template),
    ['Accepted password for root from <*> port <*> ssh2', 'decoding <*> bytes of session <*> as utf8'],
  );
});

test('a line with another word there shows the wildcard for good, and the id and grouping stay', () => {
  const miner = new LogMiner();
  const cluster = miner.mine('sshd', ACCEPTED[0]!);
  const id = cluster.id;
  for (const line of ACCEPTED.slice(1)) miner.mine('sshd', line);
  assert.equal(templateText(cluster), 'Accepted password for root from <*> port <*> ssh2');
  assert.equal(miner.mine('sshd', 'Accepted password for root from 10.0.0.4 port 50312 ssh1'), cluster);
  assert.equal(templateText(cluster), 'Accepted password for root from <*> port <*>');
  for (const line of ACCEPTED) assert.equal(miner.mine('sshd', line), cluster);
  assert.equal(templateText(cluster), 'Accepted password for root from <*> port <*>', 'monotone toward the wildcard');
  assert.equal(cluster.id, id);
  assert.equal(miner.templateCount(), 1);
});

test('with the fingerprint cache off or on, the text is the same, and a cached line still ends a watch', () => {
  const lines = [...ACCEPTED, 'Accepted password for root from 10.0.0.4 port 50312 ssh7', ...ACCEPTED];
  const texts = (useCache: boolean): string[] => {
    const miner = new LogMiner({ ...DEFAULT_MINER_OPTIONS, useCache });
    return lines.map((line) => templateText(miner.mine('sshd', line)));
  };
  assert.deepEqual(texts(true), texts(false));
  assert.equal(texts(true)[3], 'Accepted password for root from <*> port <*> ssh2');
  assert.equal(texts(true)[4], 'Accepted password for root from <*> port <*>');
  // `ssh7` masks as `ssh2` does: the line the cache answers is read for the watched word.
  assert.equal(fingerprintLine(lines[4]!, { keepHttpStatus: true }), fingerprintLine(ACCEPTED[3]!, { keepHttpStatus: true }), 'same masked tokens');
});

test('a cached line given as bytes is checked against the watched word too', () => {
  const miner = new LogMiner();
  const mask = miner.maskOptions();
  for (const line of ACCEPTED) miner.mine('sshd', line);
  const line = Buffer.from('Accepted password for root from 10.0.0.4 port 50312 ssh3', 'latin1');
  const padded = Buffer.concat([Buffer.from('xx'), line, Buffer.from('\n')]);
  const cluster = miner.mineCached('sshd', fingerprintLine(line.toString('latin1'), mask), padded, 2, 2 + line.length);
  assert.notEqual(cluster, null);
  assert.equal(templateText(cluster!), 'Accepted password for root from <*> port <*>');
});

test('a replay with fresh numbers ends the watches it touches and creates no template', () => {
  const miner = new LogMiner();
  for (const line of ACCEPTED) miner.mine('sshd', line);
  for (let pass = 0; pass < 3; pass++) {
    for (const line of ACCEPTED)
      miner.mine(
        'sshd',
        line.replace(/\d+/g, (n) => String(Number(n) + 1000 * (pass + 1))),
      );
  }
  assert.equal(miner.templateCount(), 1);
  assert.equal(miner.templates()[0]!.template, 'Accepted password for root from <*> port <*>');
});

test('ids, durations, hex and words of a line that does not line up are never shown', () => {
  for (const word of ['ssh2', 'utf8', 'PKCS8', 'eth1', 'IRQ9', 'md5']) assert.equal(isConstantWord(word), true, word);
  for (const word of ['12ms', 'a3f9', 'deadbeef0', 'ssh', '42', 'x', 'node-17', 'jk2_init', 'v1.2', 'edge03', 'node001']) {
    assert.equal(isConstantWord(word), false, word);
  }
  for (const word of ['L0', 'h10', 'RFC3339']) assert.equal(isConstantWord(word), true, word);
  // A run of values opening and ending in such words shows the first.
  const run = new LogMiner();
  for (let i = 0; i < 3; i++) run.mine('s', `negotiated ssh2 ${i + 20} utf8 for session ${i}`);
  assert.equal(run.templates()[0]!.template, 'negotiated ssh2 <*> for session <*>');
  // After a label a word is the labelled value.
  const labelled = new LogMiner();
  for (let i = 0; i < 5; i++) labelled.mine('s', `replacing subscription ${i} of consumers: h2`);
  assert.equal(labelled.templates()[0]!.template, 'replacing subscription <*> of consumers: <*>');
  const miner = new LogMiner();
  for (let i = 0; i < 5; i++) miner.mine('s', `took 12ms for request a3f9 of ${i}`);
  assert.equal(miner.templates()[0]!.template, 'took <*> for request <*> of <*>');
  // A one-line template shows no word.
  const once = new LogMiner();
  once.mine('s', 'negotiated cipher suite chacha20 with peer');
  assert.equal(once.templates()[0]!.template, 'negotiated cipher suite <*> with peer');
});

test('a restored template shows its words, keeps its id and goes on checking them', () => {
  const miner = new LogMiner();
  for (const line of ACCEPTED) miner.mine('sshd', line);
  const snapshot = snapshotMiner(miner);
  assert.deepEqual(snapshot.templates[0]!.tokens.slice(-1), ['ssh2']);
  const restored = restoreMiner(JSON.parse(JSON.stringify(snapshot)) as typeof snapshot, DEFAULT_MINER_OPTIONS);
  const [before] = restored.templates();
  assert.equal(before!.template, 'Accepted password for root from <*> port <*> ssh2');
  assert.equal(before!.templateId, miner.templates()[0]!.templateId);
  // Lines find it (the shown word is compared as the wildcard it stands for) and it stays.
  assert.equal(restored.mine('sshd', ACCEPTED[1]!).id, before!.templateId);
  assert.equal(restored.templates()[0]!.template, 'Accepted password for root from <*> port <*> ssh2');
  assert.equal(restored.mine('sshd', ACCEPTED[1]!.replace('ssh2', 'ssh1')).id, before!.templateId);
  assert.equal(restored.templates()[0]!.template, 'Accepted password for root from <*> port <*>');
  assert.equal(restored.templateCount(), 1);
  // Text that is not a shown word stays as stored.
  assert.deepEqual(unshowTokens(['jk2_init()', 'port', '<*>', 'utf8'], 4).tokens, ['jk2_init()', 'port', '<*>', '<*>']);
  // A word that ended a run of values goes back into its wildcard; one that stood alone stays a token.
  assert.deepEqual(unshowTokens(['port', '<*>', 'ssh2', 'now'], 3).tokens, ['port', '<*>', 'now']);
  assert.deepEqual(unshowTokens(['for', '<*>', 'ssh2'], 3).tokens, ['for', '<*>', '<*>']);
  assert.deepEqual(unshowTokens(['ssh2', '<*>', 'up'], 2).tokens, ['<*>', 'up']);
});
