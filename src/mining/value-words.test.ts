import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_VALUE_WORDS, ValueWords, isPlainWord } from './value-words.js';
import { DEFAULT_MINER_OPTIONS, LogMiner } from './miner.js';
import { templateText } from './drain.js';

test('only plain words are learned, and at most MAX_VALUE_WORDS of them', () => {
  assert.equal(isPlainWord('users'), true);
  assert.equal(isPlainWord('db-primary.lan'), true);
  assert.equal(isPlainWord('<*>'), false);
  assert.equal(isPlainWord('x'), false);
  assert.equal(isPlainWord('"quoted"'), false);
  assert.equal(isPlainWord('9lives'), false);
  const words = new ValueWords();
  for (let i = 0; i < MAX_VALUE_WORDS + 50; i++) words.learn(`w${i}`);
  assert.equal(words.size, MAX_VALUE_WORDS);
  assert.equal(words.has('w0'), true);
  assert.equal(words.has(`w${MAX_VALUE_WORDS}`), false);
});

test('a word one event showed to vary is a value in the other events of the service', () => {
  const miner = new LogMiner(DEFAULT_MINER_OPTIONS);
  // `primary` and `replica` vary after `user` in one event...
  miner.mine('s', 'session opened for user primary on tty 1');
  miner.mine('s', 'session opened for user replica on tty 2');
  // ...so in another event they are values from the first lines on.
  const first = miner.mine('s', 'Disconnect primary because the node holds no slot');
  const second = miner.mine('s', 'Disconnect replica because the node holds no slot');
  assert.equal(second, first);
  assert.equal(templateText(first), 'Disconnect <*> because the node holds no slot');
  // Words never seen to vary still tell events apart.
  const warmed = miner.mine('s', 'Cache warmed for the west region');
  assert.notEqual(miner.mine('s', 'Cache cooled for the west region').id, warmed.id);
});

test("texts a labelled tail showed to vary are values of several words in the service's other events", () => {
  const texts = new ValueWords();
  texts.learnText(['failed:', 'connection', 'refused'], 1, 3);
  texts.learnText(['a', '<*>', 'b'], 0, 3);
  assert.equal(texts.hasText(['connection', 'refused'], 0, 2), true);
  assert.equal(texts.hasText(['a', '<*>', 'b'], 0, 3), false);
  const miner = new LogMiner(DEFAULT_MINER_OPTIONS);
  // One event's labelled tail shows two error texts to vary...
  miner.mine('s', 'failed to connect to the primary server: connection refused');
  miner.mine('s', 'failed to connect to the primary server: context deadline exceeded');
  // ...so inside another event's line they are values, whatever their length.
  const first = miner.mine('s', 'Got error connection refused when reconnecting. Ignoring...');
  const second = miner.mine('s', 'Got error context deadline exceeded when reconnecting. Ignoring...');
  assert.equal(second, first);
  assert.equal(templateText(first), 'Got error <*> when reconnecting. Ignoring...');
});
