import { OtlpDecodeError } from './errors.js';
import { isHex, ZERO_SPAN_ID, ZERO_TRACE_ID } from './hex.js';

/** A parsed JSON object. */
export type JsonObject = { [key: string]: unknown };

const EMPTY: readonly unknown[] = Object.freeze([]);
const MAX_UINT64 = (1n << 64n) - 1n;
const MIN_INT64 = -(1n << 63n);
const MAX_INT64 = (1n << 63n) - 1n;
const UNSIGNED_DECIMAL = /^[0-9]+$/;
const SIGNED_DECIMAL = /^-?[0-9]+$/;
/** Number() alone would also take '0x10' or ' 1 '. */
const DECIMAL_FLOAT = /^-?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/;

// Every helper treats null and a missing key alike: the proto3 JSON mapping reads null as the default.

/** The object at `value`, or null when absent; anything else is an error naming `what`. */
export function jsonObject(value: unknown, what: string): JsonObject | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) throw new OtlpDecodeError(`${what} must be an object`);
  return value as JsonObject;
}

/** The array at `value`, or an empty one when absent. */
export function jsonArray(value: unknown, what: string): readonly unknown[] {
  if (value === undefined || value === null) return EMPTY;
  if (!Array.isArray(value)) throw new OtlpDecodeError(`${what} must be an array`);
  return value;
}

/** The string at `value`, or '' when absent. */
export function jsonString(value: unknown, what: string): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw new OtlpDecodeError(`${what} must be a string`);
  return value;
}

/** A uint32 given as an integer number or a decimal string (0 when absent). */
export function jsonUint32(value: unknown, what: string): number {
  const result = jsonUint64(value, what);
  if (result > 0xffffffffn) throw new OtlpDecodeError(`${what} is out of range`);
  return Number(result);
}

/** A fixed64 / uint64 given as a decimal string or an integer number (0n when absent). */
export function jsonUint64(value: unknown, what: string): bigint {
  if (value === undefined || value === null) return 0n;
  let result: bigint;
  if (typeof value === 'string') {
    if (!UNSIGNED_DECIMAL.test(value)) throw new OtlpDecodeError(`${what} must be an unsigned integer`);
    result = BigInt(value);
  } else if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < 0) throw new OtlpDecodeError(`${what} must be an unsigned integer`);
    result = BigInt(value);
  } else {
    throw new OtlpDecodeError(`${what} must be a string or number`);
  }
  if (result > MAX_UINT64) throw new OtlpDecodeError(`${what} is out of range`);
  return result;
}

/** An int64 as the AttrValue rule says: a number when safe, else its exact decimal string. */
export function jsonInt64(value: unknown, what: string): number | string {
  let result: bigint;
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) throw new OtlpDecodeError(`${what} must be an integer`);
    if (Number.isSafeInteger(value)) return value;
    result = BigInt(value);
  } else if (typeof value === 'string') {
    if (!SIGNED_DECIMAL.test(value)) throw new OtlpDecodeError(`${what} must be an integer`);
    result = BigInt(value);
  } else {
    throw new OtlpDecodeError(`${what} must be a string or number`);
  }
  if (result < MIN_INT64 || result > MAX_INT64) throw new OtlpDecodeError(`${what} is out of range`);
  const asNumber = Number(result);
  return Number.isSafeInteger(asNumber) ? asNumber : result.toString();
}

/** A double: a number, or a numeric / 'NaN' / 'Infinity' / '-Infinity' string as proto3 JSON allows. */
export function jsonDouble(value: unknown, what: string): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    if (value === 'NaN') return NaN;
    if (value === 'Infinity') return Infinity;
    if (value === '-Infinity') return -Infinity;
    if (DECIMAL_FLOAT.test(value)) return Number(value);
  }
  throw new OtlpDecodeError(`${what} must be a number`);
}

/** An enum: its integer value (the OTLP/JSON form) or its proto name; 0 when absent. */
export function jsonEnum(value: unknown, names: ReadonlyMap<string, number>, what: string): number {
  if (value === undefined || value === null) return 0;
  if (typeof value === 'number') {
    if (!Number.isInteger(value) || value < -2147483648 || value > 2147483647) {
      throw new OtlpDecodeError(`${what} must be a 32-bit integer`);
    }
    return value;
  }
  if (typeof value === 'string') {
    const known = names.get(value);
    if (known !== undefined) return known;
    throw new OtlpDecodeError(`${what} has an unknown name`);
  }
  throw new OtlpDecodeError(`${what} must be an integer`);
}

/**
 * A trace or span id: a hex string (either case, OTLP/JSON's deviation from proto3 base64) of
 * exactly `bytes` bytes, or '' when absent or empty and `optional`. Returned in lowercase; an
 * optional all-zero id reads as '' like on the protobuf path.
 */
export function jsonId(value: unknown, bytes: number, optional: boolean, what: string): string {
  const text = jsonString(value, what);
  if (text === '' && optional) return '';
  if (text.length !== bytes * 2 || !isHex(text)) {
    throw new OtlpDecodeError(optional ? `${what} must be empty or ${bytes * 2} hex characters` : `${what} must be ${bytes * 2} hex characters`);
  }
  const id = text.toLowerCase();
  return optional && (id === ZERO_SPAN_ID || id === ZERO_TRACE_ID) ? '' : id;
}

/** A bytes field: standard or URL-safe base64, with or without padding, normalized to padded standard base64. */
export function jsonBytes(value: unknown, what: string): string {
  const text = jsonString(value, what);
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) throw new OtlpDecodeError(`${what} must be base64`);
  return Buffer.from(text, 'base64').toString('base64');
}
