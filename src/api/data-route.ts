/** What every data route shares: the store, an injectable clock, the window and the read bounds. */

import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { QueryOptions, Store } from '../model/store.js';
import { oldestAllowedNs, type TableWithLifetime } from '../store/lifetimes.js';
import { asIssue, param, parsedBy } from './query-params.js';
import type { RequestContext } from './request-context.js';
import { msToNs, parseSince, parseUntil, windowFrom, type TimeWindow } from './window.js';

export { DAY_SECS, HOUR_SECS } from '../util/time-units.js';

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
 * The contract's window parameters as a declared query group: `since` (the route's default when
 * absent) and `until` parsed, then the limits that depend on the clock (future `until`, 7 days back)
 * against one reading of `nowMs`. Its output is the resolved `window`. Put it first in `inOrder`:
 * the window is checked before a route's filters.
 */
export function windowQuery(defaultSinceSecs: number, nowMs: () => number) {
  return z
    .object({
      since: param(
        'since',
        parsedBy((value) => parseSince(value, defaultSinceSecs)),
      ),
      until: param('until', parsedBy(parseUntil)),
    })
    .transform(({ since, until }, context) =>
      asIssue(context, () => ({ window: windowFrom({ windowSecs: since ?? defaultSinceSecs, untilSecs: until }, nowMs()) })),
    );
}

/** Unix-ns bounds [fromNs, toNs) of a window for `table`, the start clamped to the table lifetime. */
export function nsRange(window: TimeWindow, table: TableWithLifetime, endMs = window.endMs): { fromNs: bigint; toNs: bigint } {
  const startNs = msToNs(window.startMs);
  const oldestNs = oldestAllowedNs(table, window.nowMs);
  return { fromNs: startNs > oldestNs ? startNs : oldestNs, toNs: msToNs(endMs) };
}
