import assert from 'node:assert/strict';
import { it } from 'node:test';
import { alertFromStored, parseAlertRecord } from './alert.js';

const RECORD = `{"alert_id":"00ff00ff00ff00ff","kind":"silence","template_id":"18446744073709551557","service":"billing",
  "template":"job <*> done","started_at_ns":1795000000123456789,"last_at_ns":1795000600987654321,"window_count":0,
  "peak_count":0,"baseline_per_window":2.5,"active":true,
  "example_traces":[{"trace_id":"${'a'.repeat(32)}","story_id":null},{"trace_id":"${'b'.repeat(32)}","story_id":"${'b'.repeat(32)}"}],
  "baseline_day":1,"baseline_week":2}`;

it('reads an alerts-topic record with exact nanoseconds', () => {
  const parsed = parseAlertRecord(Buffer.from(RECORD));
  assert.ok(parsed.ok);
  assert.deepEqual(parsed.alert, {
    alert_id: '00ff00ff00ff00ff',
    kind: 'silence',
    template_id: '18446744073709551557',
    service: 'billing',
    template: 'job <*> done',
    started_at_ns: 1795000000123456789n,
    last_at_ns: 1795000600987654321n,
    window_count: 0,
    peak_count: 0,
    baseline_per_window: 2.5,
    example_trace_ids: ['a'.repeat(32), 'b'.repeat(32)],
  });
});

it('reads a template id written as a bare 64-bit integer exactly', () => {
  const parsed = parseAlertRecord(RECORD.replace('"18446744073709551557"', '18446744073709551557'));
  assert.ok(parsed.ok && parsed.alert.template_id === '18446744073709551557');
});

it('rejects records that are not log alerts with a reason', () => {
  const cases: [string, RegExp][] = [
    ['not json', /not JSON/],
    ['[]', /not an object/],
    [RECORD.replace('"silence"', '"error"'), /kind/],
    [RECORD.replace('1795000000123456789', '"1795000000123456789"'), /started_at_ns/],
    [RECORD.replace('"peak_count":0', '"peak_count":-1'), /peak_count/],
    [RECORD.replace('"service":"billing",', ''), /service/],
  ];
  for (const [text, reason] of cases) {
    const parsed = parseAlertRecord(text);
    assert.ok(!parsed.ok, text);
    assert.match(parsed.reason, reason);
  }
});

it('reads a stored log_alerts row (64-bit columns as decimal strings)', () => {
  const alert = alertFromStored({
    alert_id: 'x',
    a_kind: 'spike',
    a_template_id: '7',
    a_service: 's',
    a_template: 't',
    a_started_at_ns: '1795000000123456789',
    a_last_at_ns: '1795000600987654321',
    a_window_count: '30',
    a_peak_count: '31',
    a_baseline_per_window: 4,
    a_baseline_day: null,
    a_baseline_week: null,
    a_example_trace_ids: ['c'.repeat(32)],
  });
  assert.equal(alert.last_at_ns, 1795000600987654321n);
  assert.equal(alert.window_count, 30);
  assert.deepEqual(alert.example_trace_ids, ['c'.repeat(32)]);
});
