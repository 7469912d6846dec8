import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isHttpMethod } from './http-method.js';
import { DEFAULT_MINER_OPTIONS, LogMiner } from './miner.js';
import { templateText } from './drain.js';

test('HTTP methods, bare or after a quote, are known', () => {
  assert.equal(isHttpMethod('GET'), true);
  assert.equal(isHttpMethod('"POST'), true);
  assert.equal(isHttpMethod("'DELETE"), true);
  assert.equal(isHttpMethod('Get'), false);
  assert.equal(isHttpMethod('GETS'), false);
  assert.equal(isHttpMethod(undefined), false);
});

test('two methods in the same place, even opening a line, are one event', () => {
  const miner = new LogMiner(DEFAULT_MINER_OPTIONS);
  const head = miner.mine('s', 'HEAD is not an async generator function, skipping this method.');
  assert.equal(miner.mine('s', 'PUT is not an async generator function, skipping this method.').id, head.id);
  assert.equal(templateText(head), '<*> is not an async generator function, skipping this method.');
  const get = miner.mine('s', 'cannot route GET request to the handler');
  assert.equal(miner.mine('s', 'cannot route POST request to the handler').id, get.id);
  // Other capitalized first words stay words of the message.
  const starting = miner.mine('s', 'Starting the cache warmer now');
  assert.notEqual(miner.mine('s', 'Stopping the cache warmer now').id, starting.id);
});
