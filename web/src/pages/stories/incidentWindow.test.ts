import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { incidentWindow, lengthInWords } from './incidentWindow.js';

describe('incidentWindow', () => {
  it('takes a page window shorter than an hour as asked', () => {
    assert.deepEqual(incidentWindow('5m'), { since: '5m', length: '5 minutes' });
    assert.deepEqual(incidentWindow('15m'), { since: '15m', length: '15 minutes' });
    assert.deepEqual(incidentWindow('45m'), { since: '45m', length: '45 minutes' });
    assert.deepEqual(incidentWindow('90s'), { since: '90s', length: '90 seconds' });
  });

  it('covers the last 15 minutes of the default hour and of longer windows', () => {
    for (const since of ['', '1h', '60m', '6h', '7d']) assert.deepEqual(incidentWindow(since), { since: '15m', length: '15 minutes' }, since);
  });

  it('falls back to 15 minutes on a window it cannot read (the server reports the bad value elsewhere)', () => {
    assert.deepEqual(incidentWindow('yesterday'), { since: '15m', length: '15 minutes' });
    assert.deepEqual(incidentWindow('0m'), { since: '15m', length: '15 minutes' });
  });
});

describe('lengthInWords', () => {
  it('names the largest whole unit, singular for one', () => {
    assert.equal(lengthInWords(60), '1 minute');
    assert.equal(lengthInWords(3600), '1 hour');
    assert.equal(lengthInWords(7200), '2 hours');
    assert.equal(lengthInWords(1), '1 second');
  });
});
