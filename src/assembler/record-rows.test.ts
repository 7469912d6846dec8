import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ITEMS_HEADER, KEY_HEADER, SIGNAL_HEADER, type BusRecord } from '../model/bus.js';
import type { LogRow, SpanRow } from '../model/signals.js';
import { encodeLogsData } from '../otlp/encode-logs.js';
import { encodeTracesData } from '../otlp/encode-traces.js';
import { DropTally } from '../otlp/item-validity.js';
import { RecordDecoder } from '../otlp/record-decoder.js';
import type { DropReason } from '../store/drop-reason.js';
import { RAW_RETENTION_NS } from '../store/lifetimes.js';
import { createLogger } from '../util/log.js';
import { encodedChunkOf, groupByTrace, readStorableRows } from './record-rows.js';

const NOW_NS = 1_800_000_000_000_000_000n;
const TRACE_A = 'a1'.repeat(16);
const TRACE_B = 'b2'.repeat(16);
const decoder = new RecordDecoder({ logger: createLogger('off'), countBad: () => undefined, counterName: 'unused' });

function span(traceId: string, spanId: string, startNs = NOW_NS): SpanRow {
  return {
    traceId,
    spanId: spanId.padStart(16, '0'),
    parentSpanId: '',
    serviceName: 's',
    name: 'n',
    kind: 'server',
    startNs,
    endNs: startNs + 5n,
    status: 'unset',
    statusMessage: '',
    attrs: [],
    resource: [['service.name', 's']],
    events: [],
    scopeName: '',
    scopeVersion: '',
  };
}

function log(traceId: string, body: string, tsNs = NOW_NS): LogRow {
  return {
    logId: '',
    tsNs,
    observedTsNs: tsNs,
    traceId,
    spanId: '',
    serviceName: 's',
    severityNumber: 9,
    severityText: '',
    body,
    attrs: [],
    resource: [['service.name', 's']],
    scopeName: '',
    scopeVersion: '',
  };
}

test('keeps the storable spans in order and tallies the others by reason', () => {
  const dropped = new DropTally<DropReason>();
  const value = encodeTracesData([span(TRACE_A, '1'), span(TRACE_A, '2', NOW_NS - RAW_RETENTION_NS - 1n), span(TRACE_B, '3'), span(TRACE_B, '4', 0n)]);
  const rows = readStorableRows(decoder, 'traces', value, undefined, NOW_NS, dropped);
  assert.deepEqual(
    rows.spans.map((s) => s.spanId),
    ['0000000000000001', '0000000000000003'],
  );
  assert.deepEqual(rows.logs, []);
  assert.deepEqual([...dropped.counts], [['too_old', 2]]);
});

test('keeps storable logs of a trace; logs without one are skipped, not tallied', () => {
  const dropped = new DropTally<DropReason>();
  const value = encodeLogsData([log(TRACE_A, 'kept'), log('', 'no trace'), log(TRACE_A, 'past Int64', 2n ** 63n), log(TRACE_A, 'old', 1n)]);
  const rows = readStorableRows(decoder, 'logs', value, undefined, NOW_NS, dropped);
  assert.deepEqual(
    rows.logs.map((l) => l.body),
    ['kept'],
  );
  assert.deepEqual(rows.spans, []);
  assert.deepEqual(Object.fromEntries(dropped.counts), { time_out_of_range: 1, too_old: 1 });
});

test('groups rows by trace in first-seen order', () => {
  const groups = groupByTrace({ spans: [span(TRACE_B, '1'), span(TRACE_A, '2'), span(TRACE_B, '3')], logs: [log(TRACE_A, 'x')] });
  assert.deepEqual([...groups.keys()], [TRACE_B, TRACE_A]);
  assert.deepEqual(
    groups.get(TRACE_B)!.spans.map((s) => s.spanId),
    ['0000000000000001', '0000000000000003'],
  );
  assert.deepEqual(
    groups.get(TRACE_A)!.logs.map((l) => l.body),
    ['x'],
  );
});

test('only records that say they hold one trace and how many items stay encoded', () => {
  const record = (headers: Record<string, string> | undefined): BusRecord => ({
    topic: 't',
    partition: 0,
    offset: 0n,
    timestampMs: 0,
    key: TRACE_A,
    value: Buffer.from('x'),
    headers,
  });
  assert.deepEqual(encodedChunkOf(record({ [SIGNAL_HEADER]: 'logs', [KEY_HEADER]: 'trace', [ITEMS_HEADER]: '3' })), {
    signal: 'logs',
    items: 3,
    value: Buffer.from('x'),
  });
  assert.equal(encodedChunkOf(record({ [SIGNAL_HEADER]: 'logs', [KEY_HEADER]: 'service' })), 'skip');
  assert.equal(encodedChunkOf(record({ [KEY_HEADER]: 'service' })), null, 'spans keyed by service are decoded');
  assert.equal(encodedChunkOf(record({ [KEY_HEADER]: 'trace', [ITEMS_HEADER]: '-1' })), null);
  assert.equal(encodedChunkOf(record({ [KEY_HEADER]: 'trace' })), null);
  assert.equal(encodedChunkOf(record(undefined)), null);
});
