import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rememberRows, takeRows } from './decoded-rows.js';

test('rows are found by the very Buffer they were encoded into, once', () => {
  const value = Buffer.from('record');
  const rows: never[] = [];
  rememberRows(value, rows);
  assert.equal(takeRows(Buffer.from('record')), undefined, 'an equal but other Buffer (a Kafka record) misses');
  assert.equal(takeRows(value), rows);
  assert.equal(takeRows(value), undefined, 'taken once');
});
