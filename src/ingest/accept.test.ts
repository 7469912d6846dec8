import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Registry } from 'prom-client';
import { otlpCodec } from '../cli/codec.js';
import type { BusRecord } from '../model/bus.js';
import { decodeTraces } from '../otlp/decode-traces.js';
import { encodeTracesData } from '../otlp/encode-traces.js';
import { ZERO_SPAN_ID } from '../otlp/hex.js';
import { makeSpans, spansToProtobuf } from '../otlp/otlp-fixtures.test-support.js';
import { openTestBus } from '../testing/test-bus.js';
import { createLogger } from '../util/log.js';
import { createAcceptor } from './accept.js';
import { createIngestMetrics } from './metrics.js';

const TOPICS = { signals: 'signals', logs: 'logs' };

describe('acceptor', () => {
  it('publishes records that decode to every valid span in full, framed from the request, when an invalid one is dropped', async () => {
    const rows = decodeTraces(spansToProtobuf(makeSpans()));
    assert.ok(rows.length >= 3 && rows.some((row) => row.attrs.length > 0));
    const invalid = rows[1]!;
    const sent = rows.map((row) => (row === invalid ? { ...row, spanId: ZERO_SPAN_ID } : row));
    const bytes = encodeTracesData(sent);
    const expected = decodeTraces(bytes).filter((row) => row.spanId !== ZERO_SPAN_ID);
    const bus = await openTestBus(Object.values(TOPICS).map((name) => ({ name, partitions: 3, retentionMs: -1, maxMessageBytes: 1 << 20 })));
    try {
      const acceptor = createAcceptor({
        bus,
        codec: otlpCodec,
        metrics: createIngestMetrics(new Registry()),
        logger: createLogger('silent'),
        topics: TOPICS,
        maxRecordBytes: 1 << 20,
      });
      const decoded = otlpCodec.decodeTracesProto(bytes);
      assert.ok(decoded.slices?.usable, 'framed from the request, not re-encoded');
      const result = await acceptor.acceptSpans(decoded);
      assert.deepEqual(result.kind === 'ok' ? result.rejected : result.kind, 1);
      const records: BusRecord[] = [];
      let resolve!: () => void;
      const all = new Promise<void>((done) => (resolve = done));
      const consumer = bus.consume({
        group: 'test',
        topics: [TOPICS.signals],
        handler: async (batch) => {
          records.push(...batch);
          if (records.flatMap((record) => decodeTraces(record.value)).length >= expected.length) resolve();
        },
      });
      await all;
      await consumer.close();
      const stored = records.flatMap((record) => decodeTraces(record.value));
      const bySpanId = (a: { spanId: string }, b: { spanId: string }) => a.spanId.localeCompare(b.spanId);
      assert.deepEqual(stored.sort(bySpanId), [...expected].sort(bySpanId));
    } finally {
      await bus.close();
    }
  });
});
