/**
 * The few pieces of Go's text handling that Jaeger's query API shows its clients: duration
 * parameters (`1.2s`, `500ms`) parsed as Go's time.ParseDuration parses them, durations printed as
 * Go prints them (clock-skew warnings), and Go's parse errors word for word, so a client that
 * matches on Jaeger's messages sees the same text from svc.
 */

const UNIT_NS: Record<string, bigint> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 micro sign
  μs: 1_000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

const MAX_NS = (1n << 63n) - 1n;

/** Go's strconv.Quote for the plain text a query parameter holds. */
export function goQuote(text: string): string {
  return JSON.stringify(text);
}

/** Parses a Go duration string to nanoseconds; throws Go's own message on bad input. */
export function parseGoDuration(text: string): bigint {
  const invalid = () => new Error(`time: invalid duration ${goQuote(text)}`);
  let rest = text;
  let negative = false;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    negative = rest.startsWith('-');
    rest = rest.slice(1);
  }
  if (rest === '0') return 0n;
  if (rest === '') throw invalid();
  let totalNs = 0n;
  while (rest !== '') {
    const number = /^(\d*)(?:\.(\d*))?/.exec(rest);
    const whole = number?.[1] ?? '';
    const fraction = number?.[2];
    if (whole === '' && (fraction === undefined || fraction === '')) throw invalid();
    rest = rest.slice(number?.[0].length ?? 0);
    const unitMatch = /^[^\d.]+/.exec(rest);
    if (unitMatch === null) throw new Error(`time: missing unit in duration ${goQuote(text)}`);
    const unit = unitMatch[0];
    const unitNs = UNIT_NS[unit];
    if (unitNs === undefined) throw new Error(`time: unknown unit ${goQuote(unit)} in duration ${goQuote(text)}`);
    rest = rest.slice(unit.length);
    let partNs = BigInt(whole === '' ? '0' : whole) * unitNs;
    if (fraction !== undefined && fraction !== '') {
      // Go keeps the fraction's leading digits and truncates toward zero.
      partNs += (BigInt(fraction) * unitNs) / 10n ** BigInt(fraction.length);
    }
    totalNs += partNs;
    if (totalNs > MAX_NS + (negative ? 1n : 0n)) throw invalid();
  }
  return negative ? -totalNs : totalNs;
}

/** `value` over `unit` with its fraction's trailing zeros dropped, as Go prints a duration's last field. */
function fixed(valueNs: bigint, unitNs: bigint): string {
  const whole = valueNs / unitNs;
  const fraction = (valueNs % unitNs)
    .toString()
    .padStart(unitNs.toString().length - 1, '0')
    .replace(/0+$/, '');
  return fraction === '' ? whole.toString() : `${whole}.${fraction}`;
}

/** A duration as Go's time.Duration.String() prints it: `0s`, `1.5µs`, `12ms`, `1m30s`, `2h0m0.5s`. */
export function formatGoDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  const sign = ns < 0n ? '-' : '';
  const abs = ns < 0n ? -ns : ns;
  if (abs < 1_000n) return `${sign}${abs}ns`;
  if (abs < 1_000_000n) return `${sign}${fixed(abs, 1_000n)}µs`;
  if (abs < 1_000_000_000n) return `${sign}${fixed(abs, 1_000_000n)}ms`;
  const hours = abs / 3_600_000_000_000n;
  const minutes = (abs % 3_600_000_000_000n) / 60_000_000_000n;
  const seconds = `${fixed(abs % 60_000_000_000n, 1_000_000_000n)}s`;
  if (hours > 0n) return `${sign}${hours}h${minutes}m${seconds}`;
  if (minutes > 0n) return `${sign}${minutes}m${seconds}`;
  return `${sign}${seconds}`;
}

/** Go's strconv.ParseInt(text, 10, bits): the value, or Go's error text. */
export function parseGoInt(text: string, bits: 32 | 64): bigint {
  const fn = 'strconv.ParseInt';
  if (!/^[+-]?\d+$/.test(text)) throw new Error(`${fn}: parsing ${goQuote(text)}: invalid syntax`);
  const value = BigInt(text);
  const max = (1n << BigInt(bits - 1)) - 1n;
  if (value > max || value < -max - 1n) throw new Error(`${fn}: parsing ${goQuote(text)}: value out of range`);
  return value;
}
