import { useEffect, useState } from 'react';
import { fetchRoute, type RoutePath, type RouteReply } from './client';
import type { RouteName } from '../../../src/api/schemas/routes';
import { takePrefetched } from './prefetch';

export interface ApiState<T> {
  data: T | undefined;
  error: Error | undefined;
  loading: boolean;
}

/**
 * Fetches an API path and re-fetches when it changes; a stale answer never overwrites a newer one
 * because the previous request is aborted. `null` skips the request (a page without what it needs).
 * The path comes from `apiRoute`, so the data is typed from the route's declaration.
 */
export function useApi<N extends RouteName>(path: RoutePath<N> | null, reloadKey = 0): ApiState<RouteReply<N>> {
  type T = RouteReply<N>;
  const [state, setState] = useState<ApiState<T>>({ data: undefined, error: undefined, loading: path !== null });
  useEffect(() => {
    if (path === null) {
      setState({ data: undefined, error: undefined, loading: false });
      return;
    }
    const controller = new AbortController();
    // Keep the previous data while loading so tables do not flash empty on a filter change.
    setState((previous) => ({ data: previous.data, error: undefined, loading: true }));
    (takePrefetched<T>(path) ?? fetchRoute(path, { signal: controller.signal })).then(
      (data) => {
        if (!controller.signal.aborted) setState({ data, error: undefined, loading: false });
      },
      (error: Error) => {
        if (error.name !== 'AbortError' && !controller.signal.aborted) setState({ data: undefined, error, loading: false });
      },
    );
    return () => controller.abort();
  }, [path, reloadKey]);
  return state;
}
