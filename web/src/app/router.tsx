import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent } from 'react';

// A router of a few lines instead of a library: the app needs path matching, query-string state and
// back/forward, and this keeps the first load small.

const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

window.addEventListener('popstate', notify);

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const snapshot = () => window.location.pathname + window.location.search;

/** Moves to an in-app URL; `replace` for changes that should not add a history entry (typing). */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (to === snapshot()) return;
  if (options.replace) window.history.replaceState(null, '', to);
  else {
    window.history.pushState(null, '', to);
    window.scrollTo(0, 0);
  }
  notify();
}

export interface Location {
  pathname: string;
  search: string;
  query: URLSearchParams;
}

/** The current location; components re-render on every navigation. */
export function useLocation(): Location {
  const href = useSyncExternalStore(subscribe, snapshot);
  const url = new URL(href, window.location.origin);
  return { pathname: url.pathname, search: url.search, query: url.searchParams };
}

/** One query-string parameter, '' when absent. */
export function useQueryParam(name: string): string {
  return useLocation().query.get(name) ?? '';
}

/** Rewrites some query parameters of the current URL (empty values are removed). */
export function setQuery(updates: Record<string, string | null | undefined>, options: { replace?: boolean; pathname?: string } = {}): void {
  const query = new URLSearchParams(window.location.search);
  for (const [key, value] of Object.entries(updates)) {
    if (value === null || value === undefined || value === '') query.delete(key);
    else query.set(key, value);
  }
  const search = query.toString();
  navigate(`${options.pathname ?? window.location.pathname}${search === '' ? '' : `?${search}`}`, options);
}

/** `/stories/:id` style matching; returns the decoded parameters or null. */
export function matchPath(pattern: string, pathname: string): Record<string, string> | null {
  const patternParts = pattern.split('/').filter(Boolean);
  const parts = pathname.split('/').filter(Boolean);
  if (patternParts.length !== parts.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of parts.entries()) {
    // The lengths are equal (checked above), so every part has its pattern part.
    const expected = patternParts[i] ?? '';
    if (expected.startsWith(':')) {
      try {
        params[expected.slice(1)] = decodeURIComponent(part);
      } catch {
        return null;
      }
    } else if (expected !== part) return null;
  }
  return params;
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { to: string };

/** An anchor that navigates inside the app; modified clicks (new tab) keep the browser's behaviour. */
export function Link({ to, onClick, children, ...rest }: LinkProps) {
  const handle = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={to} onClick={handle} {...rest}>
      {children}
    </a>
  );
}
