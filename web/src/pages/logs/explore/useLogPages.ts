import { useCallback, useEffect, useRef, useState } from 'react';
import { fetchRoute } from '../../../api/client';
import { takePrefetched } from '../../../api/prefetch';
import type { LogSearchPage, LogSearchRow } from '../../../api/types';
import { MAX_LIST_ROWS, searchPath } from './exploreQuery';

export interface LogPages {
  rows: LogSearchRow[];
  /** More rows follow on the server (and the list is below its cap). */
  more: boolean;
  /** The list stopped at MAX_LIST_ROWS with more on the server. */
  capped: boolean;
  loading: boolean;
  error: Error | undefined;
  loadMore(): void;
}

/**
 * The search's rows page by page: the first page on every filter change or reload, the next one when
 * the list asks (scrolled near its end), following the server's cursor so no row is skipped or
 * shown twice. A filter change aborts the pages still loading for the old filter.
 */
export function useLogPages(filters: Record<string, string>, reloadKey: number): LogPages {
  const key = JSON.stringify(filters);
  const [state, setState] = useState<{ rows: LogSearchRow[]; cursor: string | null; loading: boolean; error: Error | undefined }>({
    rows: [],
    cursor: null,
    loading: true,
    error: undefined,
  });
  const controller = useRef<AbortController | null>(null);
  const inFlight = useRef(false);

  const fetchPage = useCallback(
    (cursor: string | undefined, keep: LogSearchRow[]) => {
      const own = controller.current;
      if (own === null) return;
      inFlight.current = true;
      setState((previous) => ({ ...previous, loading: true, error: undefined }));
      const path = searchPath(JSON.parse(key) as Record<string, string>, cursor);
      // The first page of a cold load may have been asked for beside the page's code (api/prefetch).
      const prefetched = cursor === undefined ? takePrefetched<LogSearchPage>(path) : undefined;
      (prefetched ?? fetchRoute(path, { signal: own.signal })).then(
        (page) => {
          if (own.signal.aborted) return;
          inFlight.current = false;
          setState({ rows: keep.concat(page.logs), cursor: page.next_cursor, loading: false, error: undefined });
        },
        (error: Error) => {
          if (own.signal.aborted || error.name === 'AbortError') return;
          inFlight.current = false;
          setState((previous) => ({ ...previous, loading: false, error }));
        },
      );
    },
    [key],
  );

  useEffect(() => {
    controller.current?.abort();
    controller.current = new AbortController();
    inFlight.current = false;
    fetchPage(undefined, []);
    return () => controller.current?.abort();
  }, [fetchPage, reloadKey]);

  const belowCap = state.rows.length < MAX_LIST_ROWS;
  return {
    rows: state.rows,
    more: state.cursor !== null && belowCap,
    capped: state.cursor !== null && !belowCap,
    loading: state.loading,
    error: state.error,
    loadMore: () => {
      if (inFlight.current || state.cursor === null || !belowCap) return;
      fetchPage(state.cursor, state.rows);
    },
  };
}
