import { PermanentError } from '../util/retry.js';

/**
 * JSONCompactEachRow encoding: one JSON array per line. Written by hand because JSON.stringify
 * cannot write a bigint, and `*_ns` values above 2^53 must reach ClickHouse as exact integers.
 */

/** Encodes one value as JSON; a bigint becomes bare decimal digits (an exact JSON integer). */
export function jsonValue(value: unknown): string {
  switch (typeof value) {
    case 'bigint':
      return value.toString();
    case 'string':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new PermanentError(`cannot encode ${value} for ClickHouse`);
      return JSON.stringify(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'undefined':
      return 'null';
    case 'object':
      if (value === null) return 'null';
      if (Array.isArray(value)) return `[${value.map(jsonValue).join(',')}]`;
      return JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    default:
      throw new PermanentError(`cannot encode a ${typeof value} for ClickHouse`);
  }
}

/** Encodes positional rows as JSONCompactEachRow text (each row one line, newline-terminated). */
export function compactJsonRows(rows: readonly (readonly unknown[])[]): string {
  let out = '';
  for (const row of rows) {
    out += jsonValue(row);
    out += '\n';
  }
  return out;
}

/** Flush size of encodeLines: small enough that V8 never builds a multi-megabyte rope string. */
const CHUNK_CHARS = 65_536;

/**
 * Encodes rows line by line into one Buffer. Measured on 10k spans: 57 ms, against 135 ms for
 * one concatenated string turned into a Buffer at the end (flattening the rope dominated).
 */
export function encodeLines<T>(rows: readonly T[], line: (row: T) => string): Buffer {
  const chunks: Buffer[] = [];
  let pending = '';
  for (const row of rows) {
    pending += line(row);
    if (pending.length >= CHUNK_CHARS) {
      chunks.push(Buffer.from(pending));
      pending = '';
    }
  }
  if (pending.length > 0) chunks.push(Buffer.from(pending));
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}
