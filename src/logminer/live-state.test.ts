/** The logminer's in-memory state: ownership expiry, the kept minute range and the detector's view. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LiveState } from './live-state.js';

const MINUTE_MS = 60_000;
const WALL_MS = 1_800_000_000_000;
const wallMinute = WALL_MS / MINUTE_MS;

function tpl(state: LiveState, id: string, service: string): void {
  state.templates.set(id, {
    templateId: id,
    service,
    template: id,
    count: 1,
    firstSeenNs: 1n,
    lastSeenNs: 2n,
    maxSeverity: 9,
    sample: id,
    signature: id,
    overflow: false,
    createdSeq: 0n,
  });
}

describe('LiveState', () => {
  it('owns a service for the ownership window after mining one of its logs', () => {
    const state = new LiveState(67, 60 * MINUTE_MS);
    state.markMined('api', WALL_MS);
    state.markMined('db', WALL_MS - 59 * MINUTE_MS);
    state.markMined('old', WALL_MS - 60 * MINUTE_MS);
    assert.deepEqual([...state.ownedServices(WALL_MS)].sort(), ['api', 'db']);
    state.prune(WALL_MS + MINUTE_MS);
    assert.deepEqual([...state.ownedServices(WALL_MS + MINUTE_MS)], ['api']);
  });

  it('counts hits only inside the kept minutes and forgets minutes that leave the range', () => {
    const state = new LiveState(65, 60 * MINUTE_MS);
    tpl(state, 't1', 'api');
    tpl(state, 't2', 'db');
    state.addMinuteHits('t1', 'api', wallMinute - 1, 2, WALL_MS);
    state.addMinuteHits('t1', 'api', wallMinute - 1, 3, WALL_MS);
    state.addMinuteHits('t1', 'api', wallMinute - 65, 1, WALL_MS);
    state.addMinuteHits('t1', 'api', wallMinute - 66, 7, WALL_MS); // older than kept: storage only
    state.addMinuteHits('t1', 'api', wallMinute + 11, 7, WALL_MS); // too far ahead
    state.addMinuteHits('t2', 'db', wallMinute - 3, 1, WALL_MS);
    const [t1] = state.templateStates(new Set(['api']));
    assert.deepEqual([...t1.minuteCounts].sort(), [
      [wallMinute - 65, 1],
      [wallMinute - 1, 5],
    ]);
    assert.deepEqual(
      [...state.coverageOf(new Set(['api', 'db', 'none']))].map(([s, m]) => [s, [...m].sort()]),
      [
        ['api', [wallMinute - 65, wallMinute - 1]],
        ['db', [wallMinute - 3]],
      ],
    );
    state.prune(WALL_MS + MINUTE_MS);
    const [later] = state.templateStates(new Set(['api']));
    assert.deepEqual([...later.minuteCounts], [[wallMinute - 1, 5]]);
  });

  it('keeps each service log clock and the newest log time', () => {
    const state = new LiveState(65, 60 * MINUTE_MS);
    state.advanceClock('api', 50n);
    state.advanceClock('api', 40n);
    state.advanceClock('db', 70n);
    assert.deepEqual(
      [...state.serviceClockNs],
      [
        ['api', 50n],
        ['db', 70n],
      ],
    );
    assert.equal(state.newestLogNs, 70n);
  });
});
