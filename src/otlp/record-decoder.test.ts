import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createLogger } from '../util/log.js';
import { encodeLogsData } from './encode-logs.js';
import { encodeTracesData } from './encode-traces.js';
import { logIdOf } from './log-id.js';
import { RecordDecoder } from './record-decoder.js';

const span = {
  traceId: 'ab'.repeat(16),
  spanId: 'cd'.repeat(8),
  parentSpanId: '',
  serviceName: 'checkout',
  name: 'GET /',
  kind: 'server',
  startNs: 1n,
  endNs: 2n,
  status: 'unset',
  statusMessage: '',
  attrs: [],
  resource: [['service.name', 'checkout']],
  events: [],
  scopeName: '',
  scopeVersion: '',
} as const;
const log = {
  logId: '',
  tsNs: 1n,
  observedTsNs: 1n,
  traceId: '',
  spanId: '',
  serviceName: 'checkout',
  severityNumber: 9,
  severityText: '',
  body: 'hello',
  attrs: [],
  resource: [['service.name', 'checkout']],
  scopeName: '',
  scopeVersion: '',
} as const;
/** A length-delimited field 1 claiming more bytes than follow. */
const TRUNCATED = Uint8Array.from([0x0a, 0x05, 0x01]);

function decoderWithLog() {
  const lines: string[] = [];
  let bad = 0;
  const logger = createLogger('info', { write: (line: string) => lines.push(line) > 0 } as unknown as NodeJS.WritableStream);
  const decoder = new RecordDecoder({ logger, countBad: () => bad++, counterName: 'svc_test_dropped_items_total' });
  return { decoder, lines, bad: () => bad };
}

test('decodes spans and logs of well-formed values, counting nothing', () => {
  const { decoder, lines, bad } = decoderWithLog();
  assert.deepEqual(
    decoder.spans(encodeTracesData([structuredClone(span) as never])).map((s) => s.spanId),
    [span.spanId],
  );
  assert.deepEqual(
    decoder.logs(encodeLogsData([structuredClone(log) as never])).map((l) => l.body),
    ['hello'],
  );
  assert.equal(bad(), 0);
  assert.deepEqual(lines, []);
});

test('an undecodable value yields no rows, is counted every time and logged once, with its place when known', () => {
  const { decoder, lines, bad } = decoderWithLog();
  assert.deepEqual(decoder.spans(TRUNCATED, { topic: 'svc.signals', partition: 3, offset: 42n }), []);
  assert.deepEqual(decoder.logs(TRUNCATED), []);
  assert.deepEqual(decoder.spans(TRUNCATED), []);
  assert.equal(bad(), 3);
  assert.equal(lines.length, 1);
  const line = JSON.parse(lines[0]) as Record<string, unknown>;
  assert.equal(line.msg, 'skipping an undecodable bus record (counted in svc_test_dropped_items_total; logged once)');
  assert.deepEqual([line.topic, line.partition, line.offset], ['svc.signals', 3, '42']);
});

test('log rows carry their logId unless the decoder is made without ids; every other field is the same', () => {
  const { decoder } = decoderWithLog();
  const withoutIds = new RecordDecoder({
    logger: createLogger('info', { write: () => true } as unknown as NodeJS.WritableStream),
    countBad: () => {},
    counterName: 'x',
    logIds: false,
  });
  const value = encodeLogsData([structuredClone({ ...log, attrs: [['k', 'v']] }) as never]);
  const [full] = decoder.logs(value);
  const [plain] = withoutIds.logs(value);
  assert.equal(full!.logId, logIdOf(full!));
  assert.notEqual(full!.logId, '');
  assert.equal(plain!.logId, '');
  assert.deepEqual({ ...plain, logId: full!.logId }, full);
});
