/**
 * Query and path parameter checks shared by the data routes, each answering 400 with a short
 * lowercase message that names the parameter (the contract's Errors and Limits).
 */

import { badRequest } from './errors.js';

/** Contract limit for `service`, `endpoint`, `q`, `metric` and a service name. */
export const MAX_TEXT_CHARS = 200;
const U64_MAX = 18_446_744_073_709_551_615n;

export type Query = Record<string, unknown>;

/** The one value of a query parameter; a repeated parameter is refused rather than guessed at. */
export function single(query: Query, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw badRequest(`${name} must be given once`);
  return value;
}

/** An optional free-text filter of at most 200 characters; empty means absent. */
export function optionalText(query: Query, name: string): string | undefined {
  const value = single(query, name);
  if (value === undefined || value === '') return undefined;
  return checkText(name, value);
}

/** Refuses text over 200 characters (counted as code points, as a person counts them). */
export function checkText(name: string, value: string): string {
  if ([...value].length > MAX_TEXT_CHARS) throw badRequest(`${name} must be at most ${MAX_TEXT_CHARS} characters`);
  return value;
}

/** `kind`: `error` or `slow`, or undefined when absent or empty. */
export function storyKind(query: Query): 'error' | 'slow' | undefined {
  const value = single(query, 'kind');
  if (value === undefined || value === '') return undefined;
  if (value !== 'error' && value !== 'slow') throw badRequest('invalid kind (expected error or slow)');
  return value;
}

/** A `0`|`1` switch; absent or empty means the default. */
export function flag(query: Query, name: string, defaultValue: boolean): boolean {
  const value = single(query, name);
  if (value === undefined || value === '') return defaultValue;
  if (value === '0') return false;
  if (value === '1') return true;
  throw badRequest(`${name} must be 0 or 1`);
}

/** An integer within [min, max]; absent or empty means the default. */
export function boundedInt(query: Query, name: string, min: number, max: number, defaultValue: number): number {
  const value = single(query, name);
  if (value === undefined || value === '') return defaultValue;
  const parsed = /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN;
  if (!(parsed >= min && parsed <= max)) throw badRequest(`${name} must be within ${min}..${max}`);
  return parsed;
}

/** Whole milliseconds (a duration bound), or undefined when absent or empty. */
export function wholeMs(query: Query, name: string): number | undefined {
  const value = single(query, name);
  if (value === undefined || value === '') return undefined;
  // 12 digits: about 31 years of milliseconds, and ns products stay below 2^63.
  if (!/^\d{1,12}$/.test(value)) throw badRequest(`${name} must be a whole number of milliseconds`);
  return Number(value);
}

/** A fingerprint or template id: a decimal u64, returned in canonical form (no leading zeros). */
export function decimalU64(name: string, value: string): string {
  if (!/^\d{1,20}$/.test(value) || BigInt(value) > U64_MAX) throw badRequest(`${name} must be a decimal u64`);
  return BigInt(value).toString();
}
