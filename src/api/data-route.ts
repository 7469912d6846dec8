/** What every data route shares: the store, an injectable clock, the window and the read bounds. */

import type { FastifyRequest } from 'fastify';
import type { QueryOptions, Store } from '../model/store.js';
import { oldestAllowedNs, type TableWithLifetime } from '../store/lifetimes.js';
import { param, parsedBy } from './query-params.js';
import type { RequestContext } from './request-context.js';
import { msToNs, parseSince, parseUntil, windowFrom, type TimeWindow } from './window.js';

export const HOUR_SECS = 3_600;
export const DAY_SECS = 86_400;

export interface DataRouteDeps {
  store: Store;
  /** The clock windows, lifetimes and active flags are judged against. */
  nowMs: () => number;
}

/** The read bounds of the contract: query_timeout_secs and the request's abort signal. */
export function readOptions(context: RequestContext, request: FastifyRequest): QueryOptions {
  return { timeoutSecs: context.queryTimeoutSecs, signal: context.signal(request) };
}

/**
 * The contract's window parameters as declared query fields, `since` defaulting to the route's:
 * spread them first into a route's query declaration (the window is checked before the filters).
 */
export function windowParams(defaultSinceSecs: number) {
  return {
    since: param(
      'since',
      parsedBy((value) => parseSince(value, defaultSinceSecs)),
    ).transform((secs) => secs ?? defaultSinceSecs),
    until: param('until', parsedBy(parseUntil)),
  };
}

/** The window of a parsed query, with the limits that depend on the clock (future `until`, 7 days back). */
export function queryWindow(query: { since: number; until?: number }, nowMs: number): TimeWindow {
  return windowFrom({ windowSecs: query.since, untilSecs: query.until }, nowMs);
}

/** Unix-ns bounds [fromNs, toNs) of a window for `table`, the start clamped to the table lifetime. */
export function nsRange(window: TimeWindow, table: TableWithLifetime, endMs = window.endMs): { fromNs: bigint; toNs: bigint } {
  const startNs = msToNs(window.startMs);
  const oldestNs = oldestAllowedNs(table, window.nowMs);
  return { fromNs: startNs > oldestNs ? startNs : oldestNs, toNs: msToNs(endMs) };
}
