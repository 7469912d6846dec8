import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dataLagNote } from './dataLag.js';

describe('dataLagNote', () => {
  it('calls a small lag processing delay and a large one a quiet source', () => {
    assert.equal(dataLagNote(0), 'behind the newest log');
    assert.equal(dataLagNote(300), 'behind the newest log');
    assert.equal(dataLagNote(9000), 'no logs processed for 2 h 30 min');
  });
});
