/**
 * HTTP request methods: a statement that prints a request prints its method as a value (`HEAD is
 * not an async generator function`, `request "GET /a"`), so two methods in the same place differ
 * like values, not like words of the message, even in capitals or opening a line.
 */
const METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'CONNECT', 'TRACE']);

/** Whether the token is an HTTP method, bare or after an opening quote (`GET`, `"POST`). */
export function isHttpMethod(token: string | undefined): boolean {
  if (token === undefined || token.length < 3) return false;
  const c = token.charCodeAt(0);
  return METHODS.has(c === 34 || c === 39 ? token.slice(1) : token);
}
