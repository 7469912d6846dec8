// The explorer's state lives in the URL; these pure helpers turn it into API paths and back.

import { apiRoute, type RoutePath } from '../../../api/client';

/** URL parameters the explorer keeps (besides since/until, `live` and the expanded `log`). */
export const FILTER_PARAMS = ['q', 'service', 'severity', 'template_id', 'trace_id'] as const;

/** Most rows the list holds; past this the user narrows the search. */
export const MAX_LIST_ROWS = 10_000;
export const PAGE_ROWS = 500;

export function filtersOf(query: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of [...FILTER_PARAMS, 'since', 'until']) {
    const value = query.get(key);
    if (value !== null && value !== '') out[key] = value;
  }
  return out;
}

export function searchPath(filters: Record<string, string>, cursor?: string): RoutePath<'logs/search'> {
  return apiRoute('logs/search', { ...filters, limit: PAGE_ROWS, cursor });
}

export function seriesPath(filters: Record<string, string>): RoutePath<'logs/series'> {
  return apiRoute('logs/series', filters);
}

/** The explorer filtered by a template (the template page's link into it). */
export function exploreTemplatePath(templateId: string, query: URLSearchParams): string {
  const keep = new URLSearchParams({ template_id: templateId });
  for (const key of ['since', 'until']) {
    const value = query.get(key);
    if (value) keep.set(key, value);
  }
  return `/logs/explore?${keep.toString()}`;
}
