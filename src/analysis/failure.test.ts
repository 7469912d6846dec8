import assert from 'node:assert/strict';
import { test } from 'node:test';
import { failureOf, isFailing, logsBySpan } from './failure.js';
import { exceptionEvent, log, span, type LogSpec, type SpanSpec } from './fixtures.test-support.js';

const base: SpanSpec = { id: 's', start: 0, end: 10 };

const failingCases: { name: string; span: SpanSpec; logs?: LogSpec[]; failing: boolean }[] = [
  { name: 'status unset, nothing else', span: base, failing: false },
  { name: 'status ok', span: { ...base, status: 'ok' }, failing: false },
  { name: 'status error', span: { ...base, status: 'error' }, failing: true },
  { name: 'an exception event', span: { ...base, events: [exceptionEvent(1, 'boom')] }, failing: true },
  {
    name: 'a non-exception event',
    span: { ...base, events: [{ ...exceptionEvent(1, 'x'), name: 'retry' }] },
    failing: false,
  },
  { name: 'an attached log of severity 17 (ERROR)', span: base, logs: [{ span: 's', severity: 17, body: 'e', at: 1 }], failing: true },
  { name: 'an attached log of severity 21 (FATAL)', span: base, logs: [{ span: 's', severity: 21, body: 'f', at: 1 }], failing: true },
  { name: 'an attached log of severity 16 (WARN)', span: base, logs: [{ span: 's', severity: 16, body: 'w', at: 1 }], failing: false },
  { name: 'a severe log of another span', span: base, logs: [{ span: 'other', severity: 17, body: 'e', at: 1 }], failing: false },
];

for (const c of failingCases) {
  test(`failing: ${c.name}`, () => {
    const logs = logsBySpan((c.logs ?? []).map((l, i) => log(l, i)));
    const row = span(c.span);
    assert.equal(isFailing(row, logs.get(row.spanId)), c.failing);
  });
}

const messageCases: { name: string; span: SpanSpec; logs?: LogSpec[]; message: string; type: string }[] = [
  {
    name: 'status message first',
    span: { ...base, status: 'error', message: 'status says', events: [exceptionEvent(1, 'exception says', 'IOError')] },
    logs: [{ span: 's', severity: 17, body: 'log says', at: 1 }],
    message: 'status says',
    type: 'IOError',
  },
  {
    name: 'then the exception message',
    span: { ...base, status: 'error', events: [exceptionEvent(1, 'exception says', 'IOError')] },
    logs: [{ span: 's', severity: 17, body: 'log says', at: 1 }],
    message: 'exception says',
    type: 'IOError',
  },
  {
    name: 'then the first ERROR log by time',
    span: { ...base, status: 'error' },
    logs: [
      { span: 's', severity: 18, body: 'second error', at: 5 },
      { span: 's', severity: 9, body: 'info first', at: 0 },
      { span: 's', severity: 17, body: 'first error', at: 2 },
    ],
    message: 'first error',
    type: '',
  },
  {
    name: 'a FATAL log is not an ERROR log for the message',
    span: { ...base, status: 'error' },
    logs: [{ span: 's', severity: 21, body: 'fatal', at: 1 }],
    message: 'error',
    type: '',
  },
  { name: 'then the literal error', span: { ...base, status: 'error' }, message: 'error', type: '' },
  {
    name: 'an exception event without message still gives its type',
    span: { ...base, events: [exceptionEvent(1, undefined, 'TimeoutError')] },
    message: 'error',
    type: 'TimeoutError',
  },
  {
    name: 'the earliest exception event with a message wins',
    span: { ...base, events: [exceptionEvent(3, 'later', 'B'), exceptionEvent(1, 'earlier', 'A')] },
    message: 'earlier',
    type: 'A',
  },
];

for (const c of messageCases) {
  test(`message order: ${c.name}`, () => {
    const logs = logsBySpan((c.logs ?? []).map((l, i) => log(l, i)));
    const row = span(c.span);
    assert.deepEqual(failureOf(row, logs.get(row.spanId)), { message: c.message, exceptionType: c.type });
  });
}
