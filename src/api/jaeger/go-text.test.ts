import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatGoDuration, parseGoDuration, parseGoInt } from './go-text.js';
import { parseRfc3339Nano } from './rfc3339.js';

describe("Go's text as Jaeger shows it", () => {
  it('parses durations as time.ParseDuration does', () => {
    assert.equal(parseGoDuration('1.2s'), 1_200_000_000n);
    assert.equal(parseGoDuration('500ms'), 500_000_000n);
    assert.equal(parseGoDuration('1m30s'), 90_000_000_000n);
    assert.equal(parseGoDuration('250us'), 250_000n);
    assert.equal(parseGoDuration('250µs'), 250_000n);
    assert.equal(parseGoDuration('1.5h'), 5_400_000_000_000n);
    assert.equal(parseGoDuration('-2ms'), -2_000_000n);
    assert.equal(parseGoDuration('0'), 0n);
    assert.equal(parseGoDuration('.5s'), 500_000_000n);
    assert.throws(() => parseGoDuration('abc'), { message: 'time: invalid duration "abc"' });
    assert.throws(() => parseGoDuration('10'), { message: 'time: missing unit in duration "10"' });
    assert.throws(() => parseGoDuration('10x'), { message: 'time: unknown unit "x" in duration "10x"' });
    assert.throws(() => parseGoDuration(''), { message: 'time: invalid duration ""' });
  });

  it('prints durations as time.Duration.String does', () => {
    assert.equal(formatGoDuration(0n), '0s');
    assert.equal(formatGoDuration(999n), '999ns');
    assert.equal(formatGoDuration(1_500n), '1.5µs');
    assert.equal(formatGoDuration(60_000_000n), '60ms');
    assert.equal(formatGoDuration(-110_000_000n), '-110ms');
    assert.equal(formatGoDuration(12_345_678n), '12.345678ms');
    assert.equal(formatGoDuration(1_500_000_000n), '1.5s');
    assert.equal(formatGoDuration(90_000_000_000n), '1m30s');
    assert.equal(formatGoDuration(3_600_000_000_000n), '1h0m0s');
  });

  it('parses integers as strconv.ParseInt does, with its messages', () => {
    assert.equal(parseGoInt('-42', 64), -42n);
    assert.throws(() => parseGoInt('4.2', 64), { message: 'strconv.ParseInt: parsing "4.2": invalid syntax' });
    assert.throws(() => parseGoInt('2147483648', 32), { message: 'strconv.ParseInt: parsing "2147483648": value out of range' });
  });

  it('parses RFC 3339 times to the nanosecond, any offset', () => {
    assert.equal(parseRfc3339Nano('2026-11-27T21:31:37.117123456Z'), 1_795_815_097_117_123_456n);
    assert.equal(parseRfc3339Nano('2026-11-27T22:31:37.117123456+01:00'), 1_795_815_097_117_123_456n);
    assert.equal(parseRfc3339Nano('2026-11-27T21:31:37Z'), 1_795_815_097_000_000_000n);
    assert.throws(() => parseRfc3339Nano('yesterday'), {
      message: 'parsing time "yesterday" as "2006-01-02T15:04:05.999999999Z07:00": cannot parse "yesterday" as "2006"',
    });
  });
});
