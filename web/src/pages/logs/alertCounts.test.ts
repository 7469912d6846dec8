import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LogAlert } from '../../api/types';
import { alertCounts } from './alertCounts.js';

const MIN_NS = 60e9;

function alert(fields: Partial<LogAlert>): LogAlert {
  return {
    alert_id: 'a',
    kind: 'spike',
    template_id: 't',
    service: 's',
    template: 'order <*> accepted',
    started_at_ns: 1_700_000_000e9,
    last_at_ns: 1_700_000_000e9,
    window_count: 0,
    peak_count: 0,
    baseline_per_window: 0,
    active: true,
    example_traces: [],
    ...fields,
  };
}

describe('alertCounts', () => {
  it("reads a new alert's peak as the template's hits so far, not per window", () => {
    assert.equal(alertCounts(alert({ kind: 'new', peak_count: 1 })), 'new template; 1 hit so far');
    assert.equal(alertCounts(alert({ kind: 'new', peak_count: 12 })), 'new template; 12 hits so far');
  });
  it('reads a silence alert as how long there have been no hits', () => {
    const started = 1_700_000_000e9;
    assert.equal(
      alertCounts(alert({ kind: 'silence', started_at_ns: started, last_at_ns: started + 45 * MIN_NS })),
      'no hits for 45 min 0 s since the last one',
    );
    assert.equal(alertCounts(alert({ kind: 'silence', started_at_ns: started, last_at_ns: started })), 'no hits since the last one');
  });
  it('reads a spike as its window against the baseline per window, with the peak', () => {
    assert.equal(
      alertCounts(alert({ window_count: 60, baseline_per_window: 2.5, peak_count: 75 })),
      '60 in the window against a baseline of 2.5 per window (peak 75)',
    );
    assert.equal(
      alertCounts(alert({ window_count: 60, baseline_per_window: 2.5, peak_count: 75, baseline_day: 3, baseline_week: 4 })),
      '60 in the window against a baseline of 2.5 per window (peak 75; day ago 3, week ago 4)',
    );
  });
});
