import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { itemMark, withoutMarks } from './attr-marks.js';
import type { AttrPair } from './signals.js';

describe('attribute marks', () => {
  it("leaves marks out of svc's own answers, returning unmarked lists as they are", () => {
    const plain: AttrPair[] = [['a', 1]];
    assert.equal(withoutMarks(plain), plain);
    assert.deepEqual(
      withoutMarks([
        ['a', 1],
        ['raw', 'AQ==', 'b'],
        ['list', [2], ['d']],
      ]),
      [
        ['a', 1],
        ['raw', 'AQ=='],
        ['list', [2]],
      ],
    );
  });

  it('finds the mark of a list item or a map key, none for a scalar mark or an own-less key', () => {
    assert.equal(itemMark(['b', null], 0), 'b');
    assert.equal(itemMark(['b', null], 1), undefined);
    assert.equal(itemMark({ k: 'i' }, 'k'), 'i');
    assert.equal(itemMark({ k: 'i' }, 'toString'), undefined);
    assert.equal(itemMark('d', 0), undefined);
    assert.equal(itemMark(undefined, 'k'), undefined);
  });
});
