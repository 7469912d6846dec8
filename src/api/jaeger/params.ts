/**
 * Jaeger's query parameters, parsed in Jaeger's order with Jaeger's messages and statuses, so that
 * a client (Grafana, Jaeger's UI, scripts written against Jaeger) sees the answers it expects.
 */

import { goQuote, parseGoDuration, parseGoInt } from './go-text.js';

/** A refusal in Jaeger's error envelope. */
export class JaegerError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'JaegerError';
  }
}

export const badParam = (message: string) => new JaegerError(400, message);

/** Jaeger's default search window: 2 days back from now. */
export const DEFAULT_SEARCH_LOOKBACK_MS = 2 * 86_400_000;
/** Jaeger's default dependencies lookback: 1 day. */
export const DEFAULT_DEPENDENCIES_LOOKBACK_MS = 86_400_000;
/** Jaeger's default number of traces a search returns. */
export const DEFAULT_SEARCH_LIMIT = 100;
/** Jaeger v2's in-memory store refuses a search depth outside 1..max_traces (100,000 in its all-in-one). */
export const MAX_SEARCH_LIMIT = 100_000;

export type RawQuery = Record<string, string | string[] | undefined>;

/** The first value of a parameter as Go's FormValue reads it ('' when absent). */
export function formValue(query: RawQuery, name: string): string {
  const value = query[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
}

function formValues(query: RawQuery, name: string): string[] {
  const value = query[name];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

function wrapParse(name: string, parse: () => bigint): bigint {
  try {
    return parse();
  } catch (error) {
    throw badParam(`unable to parse param '${name}': ${(error as Error).message}`);
  }
}

/** An integer time parameter in `unit` ns, or `fallbackNs` when absent. */
export function timeParam(query: RawQuery, name: string, unitNs: bigint, fallbackNs: bigint): bigint {
  const text = formValue(query, name);
  if (text === '') return fallbackNs;
  return wrapParse(name, () => parseGoInt(text, 64)) * unitNs;
}

/**
 * A trace id as Jaeger reads it: 1 to 32 hex digits (shorter ids are left-padded), returned as
 * svc's 32 lowercase hex; Jaeger's parse error otherwise.
 */
export function parseJaegerTraceId(text: string): string {
  if (text.length > 32) throw badParam(`TraceID cannot be longer than 32 hex characters: ${text}`);
  const high = text.length > 16 ? text.slice(0, text.length - 16) : '';
  const low = text.length > 16 ? text.slice(text.length - 16) : text;
  for (const part of high === '' ? [low] : [high, low]) {
    if (!/^[0-9a-fA-F]+$/.test(part)) throw badParam(`strconv.ParseUint: parsing ${goQuote(part)}: invalid syntax`);
  }
  return (high.padStart(16, '0') + low.padStart(16, '0')).toLowerCase();
}

/** Go's json.Unmarshal error for the common ways `text` is not a JSON object of strings (into map[string]string). */
function tagsJsonError(text: string): string | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    const trimmed = text.trim();
    if (trimmed === '') return 'unexpected end of JSON input';
    const inObject = /^\{\s*([^\s"}])/.exec(trimmed);
    if (inObject !== null) return `invalid character '${inObject[1]}' looking for beginning of object key string`;
    if (!/^[{["\d\-tfn]/.test(trimmed)) return `invalid character '${trimmed[0]}' looking for beginning of value`;
    return 'unexpected end of JSON input';
  }
  if (parsed === null) return undefined;
  const kindOf = (value: unknown) =>
    Array.isArray(value)
      ? 'array'
      : typeof value === 'number'
        ? 'number'
        : typeof value === 'boolean'
          ? 'bool'
          : typeof value === 'string'
            ? 'string'
            : 'object';
  if (typeof parsed !== 'object' || Array.isArray(parsed)) return `json: cannot unmarshal ${kindOf(parsed)} into Go value of type map[string]string`;
  for (const value of Object.values(parsed)) {
    if (typeof value !== 'string' && value !== null) return `json: cannot unmarshal ${kindOf(value)} into Go value of type string`;
  }
  return undefined;
}

/** `tag=key:value` (repeatable) and `tags={"key":"value"}` merged, the JSON ones last. */
export function parseTags(query: RawQuery): Map<string, string> {
  const tags = new Map<string, string>();
  for (const tag of formValues(query, 'tag')) {
    const parts = tag.split(':');
    if (parts.length <= 1) throw badParam(`malformed 'tag' parameter, expecting key:value, received: ${tag}`);
    tags.set(parts[0]!, parts.slice(1).join(':'));
  }
  for (const text of formValues(query, 'tags')) {
    const problem = tagsJsonError(text);
    if (problem !== undefined) throw badParam(`malformed 'tags' parameter, cannot unmarshal JSON: ${problem}`);
    const parsed = JSON.parse(text) as Record<string, string | null> | null;
    for (const [key, value] of Object.entries(parsed ?? {})) tags.set(key, value ?? '');
  }
  return tags;
}

export interface TraceSearchParams {
  service: string;
  operation: string;
  startNs: bigint;
  endNs: bigint;
  tags: Map<string, string>;
  limit: number;
  minDurationNs: bigint;
  maxDurationNs: bigint;
  /** `traceID` parameters: a lookup of these traces instead of a search. */
  traceIds: string[];
}

function durationParam(query: RawQuery, name: string): bigint {
  const text = formValue(query, name);
  return text === '' ? 0n : wrapParse(name, () => parseGoDuration(text));
}

/** GET /api/traces parameters, checked in Jaeger's order. */
export function parseTraceSearch(query: RawQuery, nowMs: number): TraceSearchParams {
  const service = formValue(query, 'service');
  const operation = formValue(query, 'operation');
  const nowNs = BigInt(nowMs) * 1_000_000n;
  const startNs = timeParam(query, 'start', 1_000n, nowNs - BigInt(DEFAULT_SEARCH_LOOKBACK_MS) * 1_000_000n);
  const endNs = timeParam(query, 'end', 1_000n, nowNs);
  const tags = parseTags(query);
  const limitText = formValue(query, 'limit');
  let limit = DEFAULT_SEARCH_LIMIT;
  if (limitText !== '') {
    try {
      limit = Number(parseGoInt(limitText, 32));
    } catch (error) {
      // Jaeger passes this one on without naming the parameter.
      throw badParam((error as Error).message);
    }
  }
  const minDurationNs = durationParam(query, 'minDuration');
  const maxDurationNs = durationParam(query, 'maxDuration');
  const traceIds: string[] = [];
  for (const id of formValues(query, 'traceID')) {
    try {
      traceIds.push(parseJaegerTraceId(id));
    } catch (error) {
      throw badParam(`cannot parse traceID param: ${(error as Error).message}`);
    }
  }
  const raw = formValue(query, 'raw');
  if (raw !== '' && !['1', 't', 'T', 'TRUE', 'true', 'True', '0', 'f', 'F', 'FALSE', 'false', 'False'].includes(raw)) {
    throw badParam(`unable to parse param 'raw': strconv.ParseBool: parsing ${goQuote(raw)}: invalid syntax`);
  }
  if (traceIds.length === 0 && service === '') throw badParam("parameter 'service' is required");
  if (minDurationNs !== 0n && maxDurationNs !== 0n && maxDurationNs < minDurationNs) throw badParam("'maxDuration' should be greater than 'minDuration'");
  return { service, operation, startNs, endNs, tags, limit, minDurationNs, maxDurationNs, traceIds };
}
