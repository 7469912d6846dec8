import { filtersOf, searchPath, seriesPath } from '../pages/logs/explore/exploreQuery';
import { incidentWindow } from '../pages/stories/incidentWindow';
import { apiFetch, apiRoute } from './client';

// On a cold load the page's code arrives in its own chunk and only then would it ask for data: two
// round trips in series. The first URL's data request starts here instead, beside the chunk download,
// and the page picks up the answer when it mounts.

const MAX_AGE_MS = 10_000;
const early = new Map<string, { promise: Promise<unknown>; atMs: number }>();

/** Starts a request now; the first `takePrefetched` of the same path gets its answer. Settles when it has. */
export function prefetch(path: string): Promise<void> {
  const started = early.get(path);
  // Failures are reported when the page takes the promise; never as an unhandled rejection here.
  if (started !== undefined) return started.promise.then(settled, settled);
  const promise = apiFetch<unknown>(path);
  early.set(path, { promise, atMs: Date.now() });
  return promise.then(settled, settled);
}

function settled(): void {}

/** The prefetched answer of `path`, once, if it is fresh. */
export function takePrefetched<T>(path: string): Promise<T> | undefined {
  const entry = early.get(path);
  if (entry === undefined) return undefined;
  early.delete(path);
  return Date.now() - entry.atMs <= MAX_AGE_MS ? (entry.promise as Promise<T>) : undefined;
}

// The API paths of the pages whose first view is measured; the pages build theirs with the same functions.
export const tracePath = (id: string) => apiRoute('traces/:traceId', { traceId: id });
export const storyPath = (id: string) => apiRoute('stories/:storyId', { storyId: id });
export const overviewPath = (query: URLSearchParams) => apiRoute('overview', { since: query.get('since'), until: query.get('until') });
export const storyGroupsPath = (query: URLSearchParams) =>
  apiRoute('story-groups', { since: query.get('since'), until: query.get('until'), kind: query.get('kind'), service: query.get('service') });
/** The Stories page's "What changed": the end of the page window (see incidentWindow), the same service filter. */
export const incidentsPath = (query: URLSearchParams) =>
  apiRoute('incidents', { since: incidentWindow(query.get('since') ?? '').since, until: query.get('until'), service: query.get('service') });

/** Prefetches what the page at `pathname` asks for first. */
export function prefetchForLocation(pathname: string, query: URLSearchParams): void {
  const traceId = /^\/traces\/([0-9a-fA-F]{32})\/?$/.exec(pathname)?.[1];
  if (traceId !== undefined) {
    void prefetch(tracePath(traceId));
    return;
  }
  const storyId = /^\/stories\/([0-9a-fA-F]{32})\/?$/.exec(pathname)?.[1];
  if (storyId !== undefined) {
    void prefetch(storyPath(storyId));
    return;
  }
  // The explorer's rows first, then its counts once the rows have come: the embedded engine runs one
  // bound query at a time, and the rows should not wait behind the counts of a wide window. Asking
  // for the counts when the answer arrives, not when the page has drawn the rows, lets the engine
  // count while the browser draws (over 24 h of 10M logs the histogram came ~250 ms sooner).
  if (/^\/logs\/explore\/?$/.test(pathname)) {
    const filters = filtersOf(query);
    void prefetch(searchPath(filters)).then(() => prefetch(seriesPath(filters)));
    return;
  }
  if (pathname === '/') {
    void prefetch(overviewPath(query));
    void prefetch(storyGroupsPath(query));
    void prefetch(incidentsPath(query));
  }
}
