import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { toKeyValue } from './jaeger-trace.js';
import { toOtlpValue } from './otlp-v3.js';

describe('attribute types in the Jaeger answers', () => {
  it('gives a marked value the type Jaeger gives it in its JSON API', () => {
    assert.deepEqual(toKeyValue('raw', 'AQI=', 'b'), { key: 'raw', type: 'binary', value: 'AQI=' });
    assert.deepEqual(toKeyValue('big', '-9223372036854775808', 'i'), { key: 'big', type: 'int64', value: '-9223372036854775808' });
    assert.deepEqual(toKeyValue('whole', 2, 'd'), { key: 'whole', type: 'float64', value: 2 });
    // Unmarked values keep what their JSON says (rows stored before marks existed read as before).
    assert.deepEqual(toKeyValue('text', 'AQI='), { key: 'text', type: 'string', value: 'AQI=' });
    assert.deepEqual(toKeyValue('int', 2), { key: 'int', type: 'int64', value: 2 });
  });

  it("prints a list or map as Go's JSON, an int64 past 2^53 as bare digits", () => {
    const value = toKeyValue('m', { z: ['9223372036854775807', 'AQ==', 3], a: 1 }, { z: ['i', 'b', 'd'] });
    assert.deepEqual(value, { key: 'm', type: 'string', value: '{"a":1,"z":[9223372036854775807,"AQ==",3]}' });
  });

  it('gives API v3 the OTLP value of each type back, inside lists and maps too', () => {
    assert.deepEqual(toOtlpValue('AQI=', 'b'), { bytesValue: 'AQI=' });
    assert.deepEqual(toOtlpValue('9007199254740993', 'i'), { intValue: '9007199254740993' });
    assert.deepEqual(toOtlpValue(2, 'd'), { doubleValue: 2 });
    assert.deepEqual(toOtlpValue(2), { intValue: '2' });
    assert.deepEqual(toOtlpValue(['AQ==', 4, 'x'], ['b', 'd', null]), {
      arrayValue: { values: [{ bytesValue: 'AQ==' }, { doubleValue: 4 }, { stringValue: 'x' }] },
    });
    assert.deepEqual(toOtlpValue({ n: 1, s: '1' }, { s: 'i' }), {
      kvlistValue: {
        values: [
          { key: 'n', value: { intValue: '1' } },
          { key: 's', value: { intValue: '1' } },
        ],
      },
    });
  });
});
