import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NotifierAlert } from './alert.js';
import { alertCount, chatBody, requestBody, rfc3339FromNs, summaryLine, traceLinks, webhookBody } from './body.js';

const T_NS = 1_795_000_000_123_456_789n;

function alert(over: Partial<NotifierAlert> = {}): NotifierAlert {
  return {
    alert_id: '0123456789abcdef',
    kind: 'new',
    template_id: '18446744073709551557',
    service: 'checkout',
    template: 'payment <*> declined',
    started_at_ns: T_NS,
    last_at_ns: T_NS + 60_000_000_000n,
    window_count: 0,
    peak_count: 3,
    baseline_per_window: 0,
    example_trace_ids: [],
    ...over,
  };
}

describe('alert bodies', () => {
  it('writes times as RFC 3339 UTC, truncated to the millisecond', () => {
    assert.equal(rfc3339FromNs(T_NS), '2026-11-18T11:06:40.123Z');
    assert.equal(rfc3339FromNs(0n), '1970-01-01T00:00:00.000Z');
    assert.equal(rfc3339FromNs(-1n), '1969-12-31T23:59:59.999Z');
  });

  it('counts a spike by its window and new/silence by peak_count (their window_count is 0)', () => {
    assert.equal(alertCount(alert({ kind: 'spike', window_count: 40, peak_count: 55 })), 40);
    assert.equal(alertCount(alert({ kind: 'new', window_count: 0, peak_count: 3 })), 3);
    assert.equal(alertCount(alert({ kind: 'silence', window_count: 0, peak_count: 0 })), 0);
  });

  it('writes one summary sentence per kind on one line', () => {
    assert.equal(summaryLine(alert()), 'New log template in checkout: "payment <*> declined"');
    assert.equal(
      summaryLine(alert({ kind: 'spike', window_count: 120, baseline_per_window: 8.25 })),
      'Log spike in checkout: "payment <*> declined" logged 120 times in the window (baseline 8.3)',
    );
    assert.equal(summaryLine(alert({ kind: 'silence' })), 'Log silence in checkout: "payment <*> declined" not seen since 2026-11-18T11:06:40.123Z');
    const long = summaryLine(alert({ template: `first\nsecond ${'x'.repeat(400)}` }));
    assert.ok(!long.includes('\n'));
    assert.ok(long.length < 260, String(long.length));
  });

  it('builds at most 3 trace links from public_url, with or without a trailing slash', () => {
    const ids = ['a', 'b', 'c', 'd'].map((c) => c.repeat(32));
    assert.deepEqual(
      traceLinks('https://svc.example/', ids),
      ids.slice(0, 3).map((id) => `https://svc.example/traces/${id}`),
    );
    assert.deepEqual(traceLinks('https://svc.example/base', ids.slice(0, 1)), [`https://svc.example/base/traces/${ids[0]}`]);
  });

  it('has exactly the webhook fields with their types', () => {
    const body = webhookBody(
      alert({ kind: 'spike', window_count: 12, baseline_per_window: 1.5, example_trace_ids: ['f'.repeat(32)] }),
      'http://localhost:8090',
    );
    assert.deepEqual(body, {
      alert_id: '0123456789abcdef',
      kind: 'spike',
      service: 'checkout',
      template_id: '18446744073709551557',
      template: 'payment <*> declined',
      started_at: '2026-11-18T11:06:40.123Z',
      last_at: '2026-11-18T11:07:40.123Z',
      count: 12,
      baseline: 1.5,
      summary: 'Log spike in checkout: "payment <*> declined" logged 12 times in the window (baseline 1.5)',
      example_trace_ids: ['f'.repeat(32)],
      links: [`http://localhost:8090/traces/${'f'.repeat(32)}`],
    });
  });

  it('sends chat targets the summary and links as text', () => {
    assert.deepEqual(chatBody(alert(), 'http://x'), { text: 'New log template in checkout: "payment <*> declined"' });
    assert.deepEqual(JSON.parse(requestBody('chat', alert({ example_trace_ids: ['1'.repeat(32)] }), 'http://x')), {
      text: `New log template in checkout: "payment <*> declined" http://x/traces/${'1'.repeat(32)}`,
    });
    assert.equal(JSON.parse(requestBody('webhook', alert(), 'http://x')).alert_id, '0123456789abcdef');
  });
});
