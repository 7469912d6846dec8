import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { zoomWindow } from './zoom.js';

describe('zoomWindow', () => {
  it('turns a drag into whole-second since/until, the end rounded up, in either direction', () => {
    const end = Date.UTC(2026, 0, 2, 3, 4, 5);
    assert.deepEqual(zoomWindow(end - 30 * 60_000, end), { since: '1800s', until: '2026-01-02T03:04:05Z' });
    assert.deepEqual(zoomWindow(end, end - 30 * 60_000 - 400), { since: '1801s', until: '2026-01-02T03:04:05Z' });
    assert.deepEqual(zoomWindow(end - 1200, end - 200), { since: '2s', until: '2026-01-02T03:04:05Z' });
  });

  it('selects at least one second', () => {
    const at = Date.UTC(2026, 0, 2, 3, 4, 5);
    assert.deepEqual(zoomWindow(at, at), { since: '1s', until: '2026-01-02T03:04:05Z' });
  });
});
