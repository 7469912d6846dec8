import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeLogs } from './decode-logs.js';
import { decodeTraces } from './decode-traces.js';
import { encodeLogsData } from './encode-logs.js';
import { encodeTracesData } from './encode-traces.js';
import { logsToProtobuf, makeLogs, makeSpans, spansToProtobuf } from './otlp-fixtures.test-support.js';
import { lenField, message, spanMessage, stringAttr } from './proto-build.test-support.js';
import { WireSlices } from './wire-slices.js';

function slicedTraces(bytes: Uint8Array) {
  const slices = new WireSlices(bytes);
  return { rows: decodeTraces(bytes, slices), slices };
}

function slicedLogs(bytes: Uint8Array) {
  const slices = new WireSlices(bytes);
  return { rows: decodeLogs(bytes, { logIds: false }, slices), slices };
}

describe('WireSlices', () => {
  it('a record framed from the request decodes to exactly the rows it holds (several resources and scopes, every field)', () => {
    const bytes = spansToProtobuf(makeSpans());
    const { rows: skimmed, slices } = slicedTraces(bytes);
    // Ingest's rows are skimmed; the consumers decode the framed records in full.
    const rows = decodeTraces(bytes);
    assert.ok(slices.usable);
    assert.equal(slices.items, rows.length);
    assert.equal(skimmed.length, rows.length);
    assert.deepEqual(decodeTraces(slices.frame(rows.map((_, i) => i))), rows);
    // Any subset, as ingest cuts one record per trace id: grouped by resource and scope on the way.
    const odd = rows.map((_, i) => i).filter((i) => i % 2 === 1);
    assert.deepEqual(
      decodeTraces(slices.frame(odd)),
      odd.map((i) => rows[i]),
    );
    // The same rows as the re-encoding it replaces.
    assert.deepEqual(decodeTraces(slices.frame(odd)), decodeTraces(encodeTracesData(odd.map((i) => rows[i]))));
    // Items of one envelope (most records): framed as they are, in their order.
    rows.forEach((row, i) => assert.deepEqual(decodeTraces(slices.frame([i, i])), [row, row]));
    assert.equal(slices.frame([]).length, 0);
  });

  it('logs: framed records decode to the same rows, ids included', () => {
    const bytes = logsToProtobuf(makeLogs());
    const { rows: skimmed, slices } = slicedLogs(bytes);
    const rows = decodeLogs(bytes);
    assert.ok(slices.usable);
    assert.equal(skimmed.length, rows.length);
    for (const indices of [[0], [3, 1], rows.map((_, i) => i)]) {
      const expected = indices.map((i) => rows[i]);
      const framed = decodeLogs(slices.frame(indices));
      assert.deepEqual(new Set(framed.map((row) => row.logId)), new Set(expected.map((row) => row.logId)));
      assert.deepEqual(framed, decodeLogs(encodeLogsData(expected)));
    }
  });

  it('keeps the resource and scope that came after their spans', () => {
    const span = spanMessage([lenField(5, 'late')]);
    const scopeSpans = message(lenField(2, span), lenField(1, message(lenField(1, 'lib'), lenField(2, '9'))));
    const resourceSpans = message(lenField(2, scopeSpans), lenField(1, message(stringAttr(1, 'service.name', 'late-svc'))));
    const bytes = message(lenField(1, resourceSpans));
    const { slices } = slicedTraces(bytes);
    const [row] = decodeTraces(slices.frame([0]));
    assert.deepEqual(row, decodeTraces(bytes)[0]);
    assert.equal(row?.name, 'late');
    assert.equal(row.serviceName, 'late-svc');
    assert.equal(row.scopeName, 'lib');
  });

  it('a repeated resource or scope field (merged by protobuf) makes the slices unusable, so ingest re-encodes', () => {
    const span = spanMessage();
    const resource = message(stringAttr(1, 'service.name', 'a'));
    const twoResources = message(
      lenField(1, message(lenField(1, resource), lenField(1, message(stringAttr(1, 'host', 'h'))), lenField(2, message(lenField(2, span))))),
    );
    assert.equal(slicedTraces(twoResources).slices.usable, false);
    const twoScopes = message(
      lenField(
        1,
        message(lenField(1, resource), lenField(2, message(lenField(1, message(lenField(1, 'x'))), lenField(1, message(lenField(2, 'y'))), lenField(2, span)))),
      ),
    );
    assert.equal(slicedTraces(twoScopes).slices.usable, false);
    // Unusable slices: the rows come decoded in full, for ingest to encode.
    assert.deepEqual(slicedTraces(twoScopes).rows, decodeTraces(twoScopes));
  });

  it("skimmed rows (usable slices) carry the full decode's ids, times, service and scope, and nothing else", () => {
    const traces = spansToProtobuf(makeSpans());
    const full = decodeTraces(traces);
    const skimmed = slicedTraces(traces).rows;
    assert.deepEqual(
      skimmed.map((row) => [row.traceId, row.spanId, row.startNs, row.endNs, row.serviceName, row.scopeName, row.scopeVersion, row.resource]),
      full.map((row) => [row.traceId, row.spanId, row.startNs, row.endNs, row.serviceName, row.scopeName, row.scopeVersion, row.resource]),
    );
    assert.ok(full.some((row) => row.attrs.length > 0 && row.name !== ''));
    assert.ok(skimmed.every((row) => row.attrs.length === 0 && row.name === '' && row.events.length === 0 && row.parentSpanId === ''));
    const logs = logsToProtobuf(makeLogs());
    const fullLogs = decodeLogs(logs, { logIds: false });
    const skimmedLogs = slicedLogs(logs).rows;
    assert.deepEqual(
      skimmedLogs.map((row) => [row.traceId, row.spanId, row.tsNs, row.observedTsNs, row.serviceName, row.scopeName, row.resource]),
      fullLogs.map((row) => [row.traceId, row.spanId, row.tsNs, row.observedTsNs, row.serviceName, row.scopeName, row.resource]),
    );
    assert.ok(skimmedLogs.every((row) => row.body === '' && row.attrs.length === 0 && row.logId === ''));
  });

  it('frames large items with multi-byte lengths', () => {
    const big = spanMessage([lenField(5, 'n'.repeat(300_000))]);
    const bytes = message(lenField(1, message(lenField(2, message(lenField(2, big), lenField(2, spanMessage()))))));
    const { slices } = slicedTraces(bytes);
    const rows = decodeTraces(bytes);
    assert.deepEqual(decodeTraces(slices.frame([1, 0])), [rows[1], rows[0]]);
  });
});
