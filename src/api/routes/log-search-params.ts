/** Query parameters of GET /api/v1/logs/search and /api/v1/logs/series, each refused with a 400 naming it. */

import { z } from 'zod';
import type { LogCursor } from '../../store/reads/log-search.js';
import { badRequest } from '../errors.js';
import { decimalU64, optionalText, param, parsedBy } from '../query-params.js';

/** Severity names to the lowest OpenTelemetry severity number of their range. */
const SEVERITY_FLOORS: Record<string, number> = { trace: 1, debug: 5, info: 9, warn: 13, error: 17, fatal: 21 };
const TRACE_ID = /^[0-9a-fA-F]{32}$/;
/** `<ts_ns>.<log_id>.<window start ns>`: the page's last row and the first page's window start. */
const CURSOR = /^(\d{1,19})\.(\d{1,20})\.(\d{1,19})$/;

/** `severity`: a name (trace, debug, info, warn, error, fatal; any case) or a number 1..24, as a minimum. */
export function minSeverity(value: string): number {
  const named = SEVERITY_FLOORS[value.toLowerCase()];
  if (named !== undefined) return named;
  if (/^\d{1,2}$/.test(value) && Number(value) >= 1 && Number(value) <= 24) return Number(value);
  throw badRequest('severity must be trace, debug, info, warn, error, fatal or a number within 1..24');
}

/** `q`'s whitespace-separated words, lower-cased, each once: all must be in the body. */
export function searchWords(q: string | undefined): string[] {
  if (q === undefined) return [];
  return [
    ...new Set(
      q
        .toLowerCase()
        .split(/\s+/)
        .filter((word) => word !== ''),
    ),
  ];
}

/** `cursor`: the `next_cursor` of a previous page. */
export function pageCursor(value: string): LogCursor & { fromNs: bigint } {
  const match = CURSOR.exec(value);
  if (
    match === null ||
    BigInt(match[1]) > 9_223_372_036_854_775_807n ||
    BigInt(match[2]) > 18_446_744_073_709_551_615n ||
    BigInt(match[3]) > 9_223_372_036_854_775_807n
  ) {
    throw badRequest('cursor must be the next_cursor of a previous page');
  }
  return { tsNs: BigInt(match[1]), logId: BigInt(match[2]).toString(), fromNs: BigInt(match[3]) };
}

export function encodeCursor(tsNs: bigint, logId: string, fromNs: bigint): string {
  return `${tsNs}.${logId}.${fromNs}`;
}

/** The filter parameters both routes share (after the window), in the order they are checked. */
export const logFilterParams = {
  service: optionalText('service'),
  severity: param('severity', parsedBy(minSeverity)),
  q: optionalText('q').transform(searchWords),
  template_id: param('template_id', decimalU64('template_id')),
  // Compared in lowercase, as stored.
  trace_id: param(
    'trace_id',
    z
      .string()
      .regex(TRACE_ID, 'trace_id must be 32 hex characters')
      .transform((value) => value.toLowerCase()),
  ),
};
