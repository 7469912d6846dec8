/** Query parameters of GET /api/v1/logs/search and /api/v1/logs/series, each refused with a 400 naming it. */

import type { LogCursor } from '../../store/reads/log-search.js';
import { badRequest } from '../errors.js';
import { decimalU64, optionalText, single, type Query } from '../query-params.js';

/** Severity names to the lowest OpenTelemetry severity number of their range. */
const SEVERITY_FLOORS: Record<string, number> = { trace: 1, debug: 5, info: 9, warn: 13, error: 17, fatal: 21 };
const TRACE_ID = /^[0-9a-fA-F]{32}$/;
/** `<ts_ns>.<log_id>.<window start ns>`: the page's last row and the first page's window start. */
const CURSOR = /^(\d{1,19})\.(\d{1,20})\.(\d{1,19})$/;

/** `severity`: a name (trace, debug, info, warn, error, fatal; any case) or a number 1..24, as a minimum. */
export function minSeverity(query: Query): number | undefined {
  const value = single(query, 'severity');
  if (value === undefined || value === '') return undefined;
  const named = SEVERITY_FLOORS[value.toLowerCase()];
  if (named !== undefined) return named;
  if (/^\d{1,2}$/.test(value) && Number(value) >= 1 && Number(value) <= 24) return Number(value);
  throw badRequest('severity must be trace, debug, info, warn, error, fatal or a number within 1..24');
}

/** `q`: at most 200 characters; its whitespace-separated words, lower-cased, must all be in the body. */
export function searchWords(query: Query): string[] {
  const q = optionalText(query, 'q');
  if (q === undefined) return [];
  return [...new Set(q.toLowerCase().split(/\s+/).filter((word) => word !== ''))];
}

/** `trace_id`: 32 hex characters, compared in lowercase as stored. */
export function traceIdFilter(query: Query): string | undefined {
  const value = single(query, 'trace_id');
  if (value === undefined || value === '') return undefined;
  if (!TRACE_ID.test(value)) throw badRequest('trace_id must be 32 hex characters');
  return value.toLowerCase();
}

export function templateIdFilter(query: Query): string | undefined {
  const value = single(query, 'template_id');
  if (value === undefined || value === '') return undefined;
  return decimalU64('template_id', value);
}

/** `cursor`: the `next_cursor` of a previous page, or undefined for the first page. */
export function pageCursor(query: Query): (LogCursor & { fromNs: bigint }) | undefined {
  const value = single(query, 'cursor');
  if (value === undefined || value === '') return undefined;
  const match = CURSOR.exec(value);
  if (match === null || BigInt(match[1]) > 9_223_372_036_854_775_807n || BigInt(match[2]) > 18_446_744_073_709_551_615n || BigInt(match[3]) > 9_223_372_036_854_775_807n) {
    throw badRequest('cursor must be the next_cursor of a previous page');
  }
  return { tsNs: BigInt(match[1]), logId: BigInt(match[2]).toString(), fromNs: BigInt(match[3]) };
}

export function encodeCursor(tsNs: bigint, logId: string, fromNs: bigint): string {
  return `${tsNs}.${logId}.${fromNs}`;
}
