/**
 * Route names to paths: `'log-templates/:id'` with `{ id: '7' }` is `/api/v1/log-templates/7`.
 * Imports nothing, so the web app uses it at run time without bundling the server's schemas.
 */

/** The names of a route name's path parameters: `'log-templates/:id'` has `id`. */
export type PathParams<N extends string> = N extends `${string}:${infer Param}/${infer Rest}`
  ? Param | PathParams<Rest>
  : N extends `${string}:${infer Param}`
    ? Param
    : never;

/** Fills a route name's path parameters, percent-encoded, into its /api/v1/ path. */
export function routePath<N extends string>(name: N, params: Record<PathParams<N>, string>): string {
  const values = params as Record<string, string>;
  return `/api/v1/${name.replace(/:([A-Za-z]+)/g, (_match, param: string) => encodeURIComponent(values[param] ?? ''))}`;
}
