import { filtersOf, searchPath } from '../pages/logs/explore/exploreQuery';
import { apiFetch, apiPath } from './client';

// On a cold load the page's code arrives in its own chunk and only then would it ask for data: two
// round trips in series. The first URL's data request starts here instead, beside the chunk download,
// and the page picks up the answer when it mounts.

const MAX_AGE_MS = 10_000;
const early = new Map<string, { promise: Promise<unknown>; atMs: number }>();

/** Starts a request now; the first `takePrefetched` of the same path gets its answer. */
export function prefetch(path: string): void {
  if (early.has(path)) return;
  const promise = apiFetch<unknown>(path);
  // Failures are reported when the page takes the promise; never as an unhandled rejection here.
  promise.catch(() => undefined);
  early.set(path, { promise, atMs: Date.now() });
}

/** The prefetched answer of `path`, once, if it is fresh. */
export function takePrefetched<T>(path: string): Promise<T> | undefined {
  const entry = early.get(path);
  if (entry === undefined) return undefined;
  early.delete(path);
  return Date.now() - entry.atMs <= MAX_AGE_MS ? (entry.promise as Promise<T>) : undefined;
}

// The API paths of the pages whose first view is measured; the pages build theirs with the same functions.
export const tracePath = (id: string) => apiPath(`traces/${encodeURIComponent(id)}`);
export const storyPath = (id: string) => apiPath(`stories/${encodeURIComponent(id)}`);
export const overviewPath = (query: URLSearchParams) => apiPath('overview', { since: query.get('since'), until: query.get('until') });
export const storyGroupsPath = (query: URLSearchParams) =>
  apiPath('story-groups', { since: query.get('since'), until: query.get('until'), kind: query.get('kind'), service: query.get('service') });

/** Prefetches what the page at `pathname` asks for first. */
export function prefetchForLocation(pathname: string, query: URLSearchParams): void {
  const trace = /^\/traces\/([0-9a-fA-F]{32})\/?$/.exec(pathname);
  if (trace !== null) return prefetch(tracePath(trace[1]));
  const story = /^\/stories\/([0-9a-fA-F]{32})\/?$/.exec(pathname);
  if (story !== null) return prefetch(storyPath(story[1]));
  // Only the explorer's rows: its counts are asked for when the page mounts, after the rows' queries,
  // which the embedded engine would otherwise run behind the counts (one bound query at a time).
  if (/^\/logs\/explore\/?$/.test(pathname)) return prefetch(searchPath(filtersOf(query)));
  if (pathname === '/') {
    prefetch(overviewPath(query));
    prefetch(storyGroupsPath(query));
  }
}
