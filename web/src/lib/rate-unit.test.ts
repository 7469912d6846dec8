import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatRateIn, rateUnitFor } from './format.js';

describe('one rate unit for a map', () => {
  it('is the largest unit in which the busiest rate is at least 1', () => {
    assert.equal(rateUnitFor(3), 's');
    assert.equal(rateUnitFor(0.5), 'min');
    assert.equal(rateUnitFor(3 / 3600), 'h');
    assert.equal(rateUnitFor(0), 's');
  });

  it('writes every rate in that unit, tiny ones as below 0.01', () => {
    assert.equal(formatRateIn(3 / 3600, 'h'), '3/h');
    assert.equal(formatRateIn(0.5, 'min'), '30/min');
    assert.equal(formatRateIn(1 / 3600, 'min'), '0.02/min');
    assert.equal(formatRateIn(1e-7, 'h'), '< 0.01/h');
    assert.equal(formatRateIn(0, 's'), '0/s');
  });
});
