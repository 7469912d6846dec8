import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { xxh3 } from '@node-rs/xxhash';
import { decodeLogsJson } from './decode-json-logs.js';
import { decodeLogs } from './decode-logs.js';
import { canonicalLogContent, logIdOf } from './log-id.js';
import { expectedLogRows, logsToJson, logsToProtobuf, makeLogs } from './otlp-fixtures.test-support.js';
import { doubleField, fixed64Field, hexBytes, lenField, logsData, message, stringAttr, varint, tag, varintField } from './proto-build.test-support.js';

describe('decodeLogs', () => {
  it('decodes the reference serializer output of real SDK log records to the expected rows', () => {
    const logs = makeLogs();
    const rows = decodeLogs(logsToProtobuf(logs));
    assert.equal(rows.length, 10);
    assert.deepEqual(
      rows.map(({ logId: _logId, ...rest }) => rest),
      expectedLogRows(logs),
    );
  });

  it('leaves log ids empty when asked not to hash (ingest), and the rows are otherwise the same, from protobuf and JSON', () => {
    const logs = makeLogs();
    const withIds = decodeLogs(logsToProtobuf(logs));
    for (const withoutIds of [decodeLogs(logsToProtobuf(logs), { logIds: false }), decodeLogsJson(logsToJson(logs), { logIds: false })]) {
      assert.ok(withoutIds.every((row) => row.logId === ''));
      assert.deepEqual(
        withoutIds,
        withIds.map((row) => ({ ...row, logId: '' })),
      );
    }
    assert.ok(withIds.every((row) => /^\d+$/.test(row.logId)));
  });

  it('renders bodies: strings as is, structures as JSON text, bytes as quoted base64, none as empty', () => {
    const rows = decodeLogs(logsToProtobuf(makeLogs())).slice(0, 5);
    assert.equal(rows[0].body, 'payment failed for order 12345');
    assert.deepEqual(JSON.parse(rows[1].body), { event: 'login', user: 'ana', attempts: 2 });
    assert.equal(rows[2].body, '42');
    assert.equal(rows[3].body, JSON.stringify(Buffer.from('hi').toString('base64')));
    assert.equal(rows[4].body, '');
    assert.equal(rows[0].traceId, '0af7651916cd43dd8448eb211c80319c');
    assert.equal(rows[0].spanId, 'b7ad6b7169203331');
    assert.equal(rows[1].traceId, '');
  });

  it('falls back to the observed time when the record time is 0', () => {
    const observed = 1_795_000_000_987_654_321n;
    const [row] = decodeLogs(logsData([message(fixed64Field(11, observed), lenField(5, message(lenField(1, 'hello'))))]));
    assert.equal(row.tsNs, observed);
    assert.equal(row.observedTsNs, observed);
    const [timed] = decodeLogs(logsData([message(fixed64Field(1, 5n), fixed64Field(11, observed))]));
    assert.equal(timed.tsNs, 5n);
  });

  it('gives a content-derived unsigned 64-bit decimal log id, stable across replays', () => {
    const bytes = logsToProtobuf(makeLogs());
    const first = decodeLogs(bytes);
    const replay = decodeLogs(Buffer.from(bytes));
    assert.deepEqual(
      replay.map((row) => row.logId),
      first.map((row) => row.logId),
    );
    assert.equal(new Set(first.map((row) => row.logId)).size, first.length);
    for (const row of first) {
      assert.match(row.logId, /^[0-9]{1,20}$/);
      assert.ok(BigInt(row.logId) < 1n << 64n);
      assert.equal(row.logId, logIdOf(row));
    }
  });

  it('hashes the documented canonical form', () => {
    const [row] = decodeLogs(
      logsData(
        [
          message(
            fixed64Field(1, 10n),
            fixed64Field(11, 11n),
            varintField(2, 9),
            lenField(3, 'INFO'),
            lenField(5, message(lenField(1, 'body'))),
            stringAttr(6, 'k', 'v'),
            lenField(9, hexBytes('0af7651916cd43dd8448eb211c80319c')),
            lenField(10, hexBytes('b7ad6b7169203331')),
          ),
        ],
        [stringAttr(1, 'service.name', 'api')],
      ),
    );
    const canonical = '3:api10,11,0af7651916cd43dd8448eb211c80319c,b7ad6b7169203331,9,4:INFO4:body1:1:ks1:v';
    assert.equal(canonicalLogContent(row), canonical);
    assert.equal(row.logId, xxh3.xxh64(canonical).toString());
  });

  it('serializes attribute values unambiguously (type letters and length prefixes)', () => {
    const base = { serviceName: 's', tsNs: 1n, observedTsNs: 1n, traceId: '', spanId: '', severityNumber: 0, severityText: '', body: '', attrs: [] };
    const variants = [
      [['a', 'b']],
      [['a', 'bc']],
      [['ab', 'c']],
      [['a', 1]],
      [['a', '1']],
      [['a', true]],
      [['a', 'true']],
      [['a', null]],
      [['a', [1, 2]]],
      [['a', [[1], 2]]],
      [['a', { x: 1 }]],
      [['a', { x: '1' }]],
      [
        ['a', 1],
        ['b', 2],
      ],
      [
        ['a', [1]],
        ['b', 2],
      ],
    ] as const;
    const ids = variants.map((attrs) => canonicalLogContent({ ...base, attrs: attrs.map(([k, v]) => [k, structuredClone(v)]) as never }));
    assert.equal(new Set(ids).size, variants.length);
    assert.notEqual(canonicalLogContent({ ...base, body: 'x', severityText: '' }), canonicalLogContent({ ...base, body: '', severityText: 'x' }));
  });

  it('changes the id when any hashed field changes, and includes the service even when the resource comes last', () => {
    const record = message(fixed64Field(1, 10n), lenField(5, message(lenField(1, 'body'))));
    const base = decodeLogs(logsData([record], [stringAttr(1, 'service.name', 'api')]))[0];
    const otherBody = decodeLogs(
      logsData([message(fixed64Field(1, 10n), lenField(5, message(lenField(1, 'body2'))))], [stringAttr(1, 'service.name', 'api')]),
    )[0];
    const otherService = decodeLogs(logsData([record], [stringAttr(1, 'service.name', 'web')]))[0];
    assert.notEqual(base.logId, otherBody.logId);
    assert.notEqual(base.logId, otherService.logId);
    const scopeLogs = message(lenField(2, record));
    const late = decodeLogs(message(lenField(1, message(lenField(2, scopeLogs), lenField(1, message(stringAttr(1, 'service.name', 'api')))))))[0];
    assert.equal(late.serviceName, 'api');
    assert.equal(late.logId, base.logId);
  });

  it('reads all-zero trace and span ids as no trace context', () => {
    const [row] = decodeLogs(logsData([message(lenField(9, new Uint8Array(16)), lenField(10, new Uint8Array(8)))]));
    assert.equal(row.traceId, '');
    assert.equal(row.spanId, '');
  });

  it('reads severity numbers, including negative ones sign-extended to 10 bytes', () => {
    const [negative] = decodeLogs(logsData([message([...tag(2, 0), ...varint(-3n)])]));
    assert.equal(negative.severityNumber, -3);
    const [double] = decodeLogs(logsData([message(lenField(5, message(doubleField(4, 2.5))))]));
    assert.equal(double.body, '2.5');
  });
});
