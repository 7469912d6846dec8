/** What every data route shares: the store, an injectable clock, the window and the read bounds. */

import type { FastifyRequest } from 'fastify';
import type { QueryOptions, Store } from '../model/store.js';
import { oldestAllowedNs, type TableWithLifetime } from '../store/lifetimes.js';
import { single, type Query } from './query-params.js';
import type { RequestContext } from './request-context.js';
import { msToNs, resolveWindow, type TimeWindow } from './window.js';

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

/** The request's `since`/`until` window with the route's default `since`. */
export function requestWindow(request: FastifyRequest, defaultSinceSecs: number, nowMs: number): TimeWindow {
  const query = request.query as Query;
  return resolveWindow({ since: single(query, 'since'), until: single(query, 'until') }, defaultSinceSecs, nowMs);
}

/** Unix-ns bounds [fromNs, toNs) of a window for `table`, the start clamped to the table lifetime. */
export function nsRange(window: TimeWindow, table: TableWithLifetime, endMs = window.endMs): { fromNs: bigint; toNs: bigint } {
  const startNs = msToNs(window.startMs);
  const oldestNs = oldestAllowedNs(table, window.nowMs);
  return { fromNs: startNs > oldestNs ? startNs : oldestNs, toNs: msToNs(endMs) };
}
