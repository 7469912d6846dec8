/**
 * RFC 3339 times with nanoseconds, as Jaeger's API v3 reads them (Go's time.Parse with
 * RFC3339Nano), and Go's error text when one does not parse.
 */

import { goQuote } from './go-text.js';

const LAYOUT = '2006-01-02T15:04:05.999999999Z07:00';
/** The layout's elements in order: what each matches and how Go names it in an error. */
const ELEMENTS: { pattern: RegExp; name: string }[] = [
  { pattern: /^\d{4}/, name: '2006' },
  { pattern: /^-/, name: '-' },
  { pattern: /^\d{2}/, name: '01' },
  { pattern: /^-/, name: '-' },
  { pattern: /^\d{2}/, name: '02' },
  { pattern: /^T/, name: 'T' },
  { pattern: /^\d{2}/, name: '15' },
  { pattern: /^:/, name: ':' },
  { pattern: /^\d{2}/, name: '04' },
  { pattern: /^:/, name: ':' },
  { pattern: /^\d{2}/, name: '05' },
  { pattern: /^(\.\d+)?/, name: '.999999999' },
  { pattern: /^(Z|[+-]\d{2}:\d{2})/, name: 'Z07:00' },
];

/** Unix ns of an RFC 3339 time; throws Go's message when `text` is not one. */
export function parseRfc3339Nano(text: string): bigint {
  const parts: string[] = [];
  let rest = text;
  for (const { pattern, name } of ELEMENTS) {
    const match = pattern.exec(rest);
    if (match === null) throw new Error(`parsing time ${goQuote(text)} as ${goQuote(LAYOUT)}: cannot parse ${goQuote(rest)} as ${goQuote(name)}`);
    parts.push(match[0]);
    rest = rest.slice(match[0].length);
  }
  if (rest !== '') throw new Error(`parsing time ${goQuote(text)}: extra text: ${goQuote(rest)}`);
  const field = (index: number) => Number(parts[index]);
  const zoneText = parts[12] ?? 'Z';
  const offsetMinutes = zoneText === 'Z' ? 0 : (zoneText.startsWith('-') ? -1 : 1) * (Number(zoneText.slice(1, 3)) * 60 + Number(zoneText.slice(4, 6)));
  const utcMs = Date.UTC(field(0), field(2) - 1, field(4), field(6), field(8), field(10)) - offsetMinutes * 60_000;
  const fractionDigits = (parts[11] ?? '').slice(1, 10).padEnd(9, '0');
  return BigInt(utcMs) * 1_000_000n + BigInt(fractionDigits);
}
