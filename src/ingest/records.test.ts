import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SIGNAL_HEADER } from '../model/bus.js';
import type { LogRow, SpanRow } from '../model/signals.js';
import { buildLogRecords, buildSpanRecords, recordBytes } from './records.js';

// A stand-in encoding whose size grows with the items: the items' names (or bodies) joined by '|'.
const spanNames = (spans: SpanRow[]) => (indices: readonly number[]) => Buffer.from(indices.map((i) => spans[i]!.name).join('|'));
const logBodies = (logs: LogRow[]) => (indices: readonly number[]) => Buffer.from(indices.map((i) => logs[i]!.body).join('|'));
const buildSpans = (spans: SpanRow[], maxRecordBytes: number) => buildSpanRecords(spans, maxRecordBytes, spanNames(spans));
const buildLogs = (logs: LogRow[], maxRecordBytes: number) => buildLogRecords(logs, maxRecordBytes, logBodies(logs));

function span(traceId: string, name: string, serviceName = 'svc-a'): SpanRow {
  return {
    traceId,
    spanId: '0'.repeat(16),
    parentSpanId: '',
    serviceName,
    name,
    kind: 'server',
    startNs: 1n,
    endNs: 2n,
    status: 'unset',
    statusMessage: '',
    attrs: [],
    resource: [],
    events: [],
    scopeName: '',
    scopeVersion: '',
  };
}

function log(traceId: string, body: string, serviceName: string): LogRow {
  return {
    logId: '1',
    tsNs: 1n,
    observedTsNs: 1n,
    traceId,
    spanId: '',
    serviceName,
    severityNumber: 9,
    severityText: 'INFO',
    body,
    attrs: [],
    resource: [],
    scopeName: '',
    scopeVersion: '',
  };
}

const T1 = 'a'.repeat(32);
const T2 = 'b'.repeat(32);

test('one record per trace id per request, keyed by trace id, with the signal header', () => {
  const built = buildSpans([span(T1, 'x'), span(T2, 'y'), span(T1, 'z')], 1000);
  assert.deepEqual(built.signals[0]?.headers, { 'svc-signal': 'traces', 'svc-items': '2', 'svc-key': 'trace' });
  assert.deepEqual(
    built.signals.map((record) => [record.key, record.value.toString(), record.headers?.[SIGNAL_HEADER]]),
    [
      [T1, 'x|z', 'traces'],
      [T2, 'y', 'traces'],
    ],
  );
  assert.equal(built.droppedItems, 0);
});

test('a group above the byte budget is split; every record fits; no item lost', () => {
  const names = Array.from({ length: 37 }, (_, i) => `span-${i}`.padEnd(40, '.'));
  const budget = 200;
  const built = buildSpans(
    names.map((name) => span(T1, name)),
    budget,
  );
  assert.ok(built.signals.length > 1);
  for (const record of built.signals) {
    assert.equal(record.key, T1);
    assert.ok(recordBytes(record.key, record.value, record.headers ?? {}) <= budget);
  }
  assert.deepEqual(
    built.signals.flatMap((record) => record.value.toString().split('|')),
    names,
  );
});

test('a single item alone above the budget is dropped and counted; its neighbours are kept', () => {
  const built = buildSpans([span(T1, 'small'), span(T1, 'x'.repeat(500)), span(T2, 'other')], 120);
  assert.equal(built.droppedItems, 1);
  assert.deepEqual(
    built.signals.map((record) => record.value.toString()),
    ['small', 'other'],
  );
});

test('logs: keyed by trace id, or by service without one; also to the logs topic keyed by service', () => {
  const built = buildLogs([log(T1, 'one', 'api'), log('', 'two', 'api'), log('', 'three', 'db'), log(T1, 'four', 'db')], 1000);
  assert.deepEqual(
    built.signals.map((record) => [record.key, record.value.toString()]),
    [
      [T1, 'one|four'],
      ['api', 'two'],
      ['db', 'three'],
    ],
  );
  assert.deepEqual(
    built.signals.map((record) => record.headers?.['svc-key']),
    ['trace', 'service', 'service'],
  );
  assert.deepEqual(
    built.logs.map((record) => [record.key, record.value.toString(), record.headers?.[SIGNAL_HEADER]]),
    [
      ['api', 'one|two', 'logs'],
      ['db', 'three|four', 'logs'],
    ],
  );
});
